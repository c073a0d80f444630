import type { Database } from '../../db';
import { databaseNow, lockRows } from '../../db/dialect';
import type { ConfigSnapshot } from '../../platform/config-store';
import type { VipAction } from '../../../shared/vip';
import { badRequest, type ApiError } from '../../wire/errors';
import { findVip, insertVipLog, saveVip, vipsOf, type UserVipRow } from './store';

// A member's VIP period: extended (never replaced) by purchases and grants, shortened by
// refunds, ended by a revoke; each change logged with its reason. Callers pass their
// transaction so that the period changes together with the order that pays for it. Each
// change reads the period and writes it back: the member's row is locked first, so that two
// changes at once (two orders paid, a grant beside a purchase) add up instead of one winning.
// Every "now" here is the database's (databaseNow): a machine whose clock is off starts, ends and
// checks a period at the same moments as the others.

const DAY_MS = 24 * 3600_000;

/**
 * The latest end a period may reach. Ends are stored as ISO 8601 text, compared as text
 * (ListUserVip's `end_at > now`) and answered as RFC 3339: all need a four-digit year. Past
 * year 9999 `toISOString()` writes `+010000-…`, which is no RFC 3339 and sorts before every
 * real date (an active member would list as expired). It is the format's limit, not a
 * business rule: one grant or plan adds at most 36500 days (VIP_PLAN_MAX_DAYS), and only some
 * 80 of them stacked reach it; a shorter rule ("at most N years ahead") would turn away
 * lifetime grants that work today.
 */
const VIP_END_MAX = '9999-12-31T00:00:00.000Z';
const VIP_END_MAX_MS = Date.parse(VIP_END_MAX);
const VIP_END_MAX_DAY = VIP_END_MAX.slice(0, 10);

/** Whole days that can still be added after `fromMs` (the current end, or now) before VIP_END_MAX. */
const daysLeftAfter = (fromMs: number) => Math.max(0, Math.floor((VIP_END_MAX_MS - fromMs) / DAY_MS));

/** The days a member's period can still be extended by (a purchase checks this before its order). */
export async function vipDaysLeft(db: Database, userId: number): Promise<number> {
  const nowMs = (await databaseNow(db)).getTime();
  const current = await findVip(db, userId);
  return daysLeftAfter(current && Date.parse(current.end_at) > nowMs ? Date.parse(current.end_at) : nowMs);
}

/** The refusal of an extension past VIP_END_MAX, naming the member when `member` is given. */
export function vipEndTooLate(daysLeft: number, member?: string): ApiError {
  const who = member ? `用户“${member}”的` : '';
  return badRequest(`${who}会员到期时间不能晚于 ${VIP_END_MAX_DAY}，最多还能延长 ${daysLeft} 天`);
}

export interface VipPeriod {
  planCode: string;
  planTitle: string;
  startAt: string;
  endAt: string;
  /** The period has not ended yet. */
  active: boolean;
}

/** What being VIP gives, for the document module (docs/api.md §9, "VIP benefits"). */
export interface VipBenefits {
  active: boolean;
  /** End of the period (ISO 8601) while active, else null. */
  until: string | null;
  /** Download without spending credits (`vip.free_download`). */
  freeDownload: boolean;
  /** Read every page, past the preview (`vip.read_all_pages`). */
  readAllPages: boolean;
  /**
   * The VIP's own daily download limit (`vip.times_every_day`); 0 = none of its own: the site's usual limit applies.
   */
  dailyDownloadQuota: number;
}

function periodOf(row: UserVipRow, nowMs: number): VipPeriod {
  return {
    planCode: row.plan_code,
    planTitle: row.plan_title,
    startAt: row.start_at,
    endAt: row.end_at,
    active: Date.parse(row.end_at) > nowMs,
  };
}

export async function vipPeriodOf(db: Database, userId: number): Promise<VipPeriod | null> {
  const row = await findVip(db, userId);
  return row ? periodOf(row, (await databaseNow(db)).getTime()) : null;
}

export async function vipPeriodsOf(db: Database, userIds: number[]): Promise<Map<number, VipPeriod>> {
  const rows = await vipsOf(db, userIds);
  const nowMs = rows.length ? (await databaseNow(db)).getTime() : 0;
  return new Map(rows.map((row) => [row.user_id, periodOf(row, nowMs)]));
}

/** The benefits of a member today: all off unless the period is active. */
export async function vipBenefits(db: Database, cfg: ConfigSnapshot, userId: number): Promise<VipBenefits> {
  const period = userId > 0 ? await vipPeriodOf(db, userId) : null;
  if (!period?.active)
    return { active: false, until: null, freeDownload: false, readAllPages: false, dailyDownloadQuota: 0 };
  return {
    active: true,
    until: period.endAt,
    freeDownload: cfg.bool('vip', 'free_download'),
    readAllPages: cfg.bool('vip', 'read_all_pages'),
    dailyDownloadQuota: Math.max(cfg.int('vip', 'times_every_day'), 0),
  };
}

export interface VipChange {
  action: VipAction;
  /** The order that paid (purchase) or is refunded; 0 for an admin's change. */
  orderId?: number;
  /** The admin who made the change; 0 for a purchase. */
  operatorId?: number;
  reason?: string;
}

/** The interval a purchase or grant added: [from, until). */
export interface GrantedInterval {
  from: string;
  until: string;
}

/**
 * Adds `days` after the current end (or from now when there is none or it has passed); `extended`:
 * after a running period's end.
 * A plan given becomes the period's plan; without one (an admin's grant) the plan stays.
 * An end past VIP_END_MAX is refused with 400 (`vipEndTooLate`, naming `member`), unless
 * `capAtMax`: a paid order (the money is there, a provider's notification must not fail)
 * ends the period at VIP_END_MAX, and its interval and log say what was really added.
 */
export async function extendVip(
  db: Database,
  userId: number,
  days: number,
  change: VipChange & { plan?: { code: string; title: string }; member?: string; capAtMax?: boolean },
): Promise<GrantedInterval & { extended: boolean }> {
  await lockRows(db, 'user', [userId]);
  const nowMs = (await databaseNow(db)).getTime();
  const current = await findVip(db, userId);
  const running = current !== undefined && Date.parse(current.end_at) > nowMs;
  const fromMs = running ? Date.parse(current.end_at) : nowMs;
  let untilMs = fromMs + days * DAY_MS;
  if (untilMs > VIP_END_MAX_MS) {
    if (!change.capAtMax) throw vipEndTooLate(daysLeftAfter(fromMs), change.member);
    untilMs = Math.max(fromMs, VIP_END_MAX_MS);
    days = Math.round((untilMs - fromMs) / DAY_MS);
  }
  const from = new Date(fromMs).toISOString();
  const until = new Date(untilMs).toISOString();
  const at = new Date(nowMs).toISOString();
  await saveVip(
    db,
    {
      user_id: userId,
      plan_code: change.plan?.code ?? current?.plan_code ?? '',
      plan_title: change.plan?.title ?? current?.plan_title ?? '',
      start_at: running ? current.start_at : from,
      end_at: until,
    },
    at,
  );
  await insertVipLog(
    db,
    {
      user_id: userId,
      action: change.action,
      days,
      order_id: change.orderId ?? 0,
      operator_id: change.operatorId ?? 0,
      reason: change.reason ?? '',
      end_before: current?.end_at ?? null,
      end_after: until,
    },
    at,
  );
  return { from, until, extended: running };
}

/**
 * What a withdrawal took back: whole days, as its log counts them, the period's end afterwards,
 * and whether it still runs then (by the database's clock, which the end was counted from).
 */
export interface Withdrawal {
  days: number;
  endAt: string;
  running: boolean;
}

/**
 * Takes back what is still unused of an interval a purchase added (its part after now): the
 * periods stacked after it move earlier by that much. Nothing to take back leaves the end.
 * Null when the member has no period (the account was deleted).
 */
export async function withdrawVip(
  db: Database,
  userId: number,
  interval: GrantedInterval,
  change: VipChange,
): Promise<Withdrawal | null> {
  await lockRows(db, 'user', [userId]);
  const nowMs = (await databaseNow(db)).getTime();
  const current = await findVip(db, userId);
  if (!current) return null;
  const unusedMs = Math.max(0, Date.parse(interval.until) - Math.max(nowMs, Date.parse(interval.from)));
  const endMs = Date.parse(current.end_at);
  const active = endMs > nowMs;
  const newEnd = new Date(Math.max(nowMs, endMs - unusedMs));
  const at = new Date(nowMs).toISOString();
  if (active) await saveVip(db, { ...current, end_at: newEnd.toISOString() }, at);
  // The log says what was taken back, not what the interval held: a period revoked or run out
  // since loses nothing more (0 days), one shortened since loses at most what it still has.
  const takenMs = active ? endMs - newEnd.getTime() : 0;
  const withdrawal = {
    days: Math.round(takenMs / DAY_MS),
    endAt: active ? newEnd.toISOString() : current.end_at,
    running: active && newEnd.getTime() > nowMs,
  };
  await insertVipLog(
    db,
    {
      user_id: userId,
      action: change.action,
      days: -withdrawal.days || 0,
      order_id: change.orderId ?? 0,
      operator_id: change.operatorId ?? 0,
      reason: change.reason ?? '',
      end_before: current.end_at,
      end_after: withdrawal.endAt,
    },
    at,
  );
  return withdrawal;
}

/** Ends an active period now; false when there was none to end. */
export async function revokeVip(db: Database, userId: number, change: VipChange): Promise<boolean> {
  await lockRows(db, 'user', [userId]);
  const nowIso = (await databaseNow(db)).toISOString();
  const current = await findVip(db, userId);
  if (!current || current.end_at <= nowIso) return false;
  await saveVip(db, { ...current, end_at: nowIso }, nowIso);
  await insertVipLog(
    db,
    {
      user_id: userId,
      action: change.action,
      days: 0,
      order_id: change.orderId ?? 0,
      operator_id: change.operatorId ?? 0,
      reason: change.reason ?? '',
      end_before: current.end_at,
      end_after: nowIso,
    },
    nowIso,
  );
  return true;
}
