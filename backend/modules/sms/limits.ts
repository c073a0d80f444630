import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { ApiError, Code } from '../../wire/errors';
import { clamp } from '../../wire/request';
import { countSent, lastSentAt } from './store';

// The sending limits that make SMS pumping pointless: per number (an interval and a daily
// count), per client address and per site (hourly counts). Every message tried counts,
// failed ones included, so a broken provider cannot be hammered either.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface SmsLimits {
  /** Seconds between two messages to one number. */
  interval: number;
  /** Messages to one number in any 24 hours. */
  mobileDaily: number;
  /** Messages asked from one client address in any hour. */
  ipHourly: number;
  /** Messages of the whole site in any hour. */
  siteHourly: number;
}

/** The `sms` config's limits; out-of-range values (edited outside the API) are clamped, never off. */
export function limitsOf(cfg: ConfigSnapshot): SmsLimits {
  const value = (name: string, fallback: number, max: number) => clamp(cfg.int('sms', name) || fallback, 1, max);
  return {
    interval: value('interval', 60, 3600),
    mobileDaily: value('mobile_daily_limit', 10, 1000),
    ipHourly: value('ip_hourly_limit', 20, 100_000),
    siteHourly: value('site_hourly_limit', 500, 1_000_000),
  };
}

const exhausted = (message: string) => new ApiError(Code.ResourceExhausted, message);

/**
 * Throws 429 (code 8) when a message to `mobile` asked from `ip` would pass a limit. `at`: the
 * database's now, as the log's times (another machine may have sent the last message).
 */
export async function assertWithinLimits(
  db: Database,
  limits: SmsLimits,
  mobile: string,
  client: { ip: string; ipv6Prefix: number },
  at: number,
): Promise<void> {
  const last = await lastSentAt(db, mobile);
  const wait = last ? Math.ceil((Date.parse(last) + limits.interval * 1000 - at) / 1000) : 0;
  if (wait > 0) throw exhausted(`发送太频繁，请 ${wait} 秒后再试`);
  const since = (ms: number) => new Date(at - ms).toISOString();
  if ((await countSent(db, { since: since(DAY_MS), mobile })) >= limits.mobileDaily) {
    throw exhausted('该手机号今日获取验证码的次数已达上限，请明天再试');
  }
  if ((await countSent(db, { since: since(HOUR_MS), client })) >= limits.ipHourly) {
    throw exhausted('当前网络获取验证码的次数过多，请稍后再试');
  }
  if ((await countSent(db, { since: since(HOUR_MS) })) >= limits.siteHourly) {
    throw exhausted('短信发送繁忙，请稍后再试');
  }
}

export const LIMIT_WINDOWS = { hourMs: HOUR_MS, dayMs: DAY_MS } as const;
