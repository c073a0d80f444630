// PunishmentAPI (docs/moredoc.md, PunishmentAPI; types in §12). There is no delete:
// a punishment ends by being cancelled (enable = false) or by its end time. Every write marks
// the punishment lists stale, and the admin's user lists, which show who is disabled.
import type { Empty } from '../../../../shared/types/common';
import type { CreatePunishmentRequest, ListPunishmentReply, Punishment } from '../../../../shared/types/punishment';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { userKeys } from '../user/api';

/** Punishment type 1 (禁用账号) makes an account 禁用. */
const DISABLE_ACCOUNT = 1;
/** The most rows one list call returns. */
const MAX_LIST_SIZE = 1000;

export const punishmentKeys = { all: ['punishment'] as const, admin: ['punishment', 'admin'] as const };

export const listPunishments = (query: {
  page: number;
  size: number;
  wd?: string;
  type?: readonly number[];
  enable?: readonly number[];
  user_id?: readonly number[];
}) => api.get<ListPunishmentReply>('/api/v1/punishment/list', query);

/** 生效中 while enabled and not past its end time. */
export function isActive(row: Punishment, now = Date.now()): boolean {
  return row.enable === true && (!row.end_time || Date.parse(row.end_time) > now);
}

/** Users under an active 禁用账号 punishment (the user model has no status column). */
export async function disabledUserIds(): Promise<Set<number>> {
  const data = unwrap(await listPunishments({ page: 1, size: MAX_LIST_SIZE, type: [DISABLE_ACCOUNT], enable: [1] }));
  const now = Date.now();
  return new Set((data.punishment ?? []).filter((p) => isActive(p, now)).map((p) => p.user_id ?? 0));
}

/** An `operators` entry whose `t` says the admin cancelled the punishment (1 created, 2 updated). */
const CANCELLED = 3;

/** When the last cancel of the row happened (ISO 8601), read from its `operators` history. */
function cancelledAt(row: Punishment): string | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(row.operators || '[]');
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  for (const entry of [...entries].reverse()) {
    const { t, ts } = (entry ?? {}) as { t?: unknown; ts?: unknown };
    if (t === CANCELLED && typeof ts === 'number' && ts > 0) return new Date(ts * 1000).toISOString();
  }
  return undefined;
}

/**
 * When the punishment ends or ended (ISO 8601), undefined for a permanent one still in force.
 * A cancelled row (enable = false) ended when it was cancelled — the time CancelPunishment
 * appends to `operators`, else its last change (switched off in the edit form) — or at its
 * end time, when that came first.
 */
export function endsAt(row: Punishment): string | undefined {
  if (row.enable) return row.end_time || undefined;
  const stopped = cancelledAt(row) ?? row.updated_at;
  if (row.end_time && (!stopped || Date.parse(row.end_time) < Date.parse(stopped))) return row.end_time;
  return stopped || row.end_time || undefined;
}

const stale = [punishmentKeys.all, userKeys.admin];

/** One row per user × type. */
export const createPunishments = (request: CreatePunishmentRequest, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/punishment', request), context, stale);

/** Full replacement of the row. */
export const updatePunishment = (punishment: Punishment, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/punishment', punishment), context, stale);

export const cancelPunishments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/punishment/cancel', { id: ids }), context, stale);
