import { SmsStatus } from '../../../shared/constants';
import { maskMobile, normalizeMainlandMobile } from '../../../shared/validation';
import type { Database } from '../../db';
import { databaseNow } from '../../db/dialect';
import type { ConfigSnapshot } from '../../platform/config-store';
import { badRequest } from '../../wire/errors';
import { clamp } from '../../wire/request';
import { LIMIT_WINDOWS, limitsOf } from './limits';
import { countSent, listLogs } from './store';

// What the admin screen reads: the log with masked numbers (never the message text) and
// the counters against the limits.

const MAX_PAGE_SIZE = 100;

/** A number filter as admins type it: empty, or a mainland number in any usual spelling. */
function mobileFilter(value: string): string {
  if (!value.trim()) return '';
  const mobile = normalizeMainlandMobile(value);
  if (!mobile) throw badRequest('手机号码格式不正确');
  return mobile;
}

export async function listSmsLog(
  db: Database,
  request: {
    page: number;
    size: number;
    mobile: string;
    ip: string;
    purpose: string[];
    provider: string[];
    status: number[];
  },
) {
  const { rows, total } = await listLogs(db, {
    mobile: mobileFilter(request.mobile),
    ip: request.ip.trim(),
    purposes: request.purpose.filter(Boolean),
    providers: request.provider.filter(Boolean),
    statuses: request.status,
    page: request.page,
    size: clamp(request.size || 10, 1, MAX_PAGE_SIZE),
  });
  return { total, rows: rows.map((row) => ({ ...row, mobile: maskMobile(row.mobile) })) };
}

/**
 * Messages of the last hour and day against the limits; a number's and an address's too when given.
 * The windows end at the database's now, as the limits' (limits.ts).
 */
export async function smsStats(
  db: Database,
  cfg: ConfigSnapshot,
  request: { mobile: string; ip: string },
  ipv6Prefix: number,
) {
  const at = (await databaseNow(db)).getTime();
  const limits = limitsOf(cfg);
  const hourAgo = new Date(at - LIMIT_WINDOWS.hourMs).toISOString();
  const dayAgo = new Date(at - LIMIT_WINDOWS.dayMs).toISOString();
  const mobile = mobileFilter(request.mobile);
  const ip = request.ip.trim();
  return {
    enable: cfg.bool('sms', 'enable'),
    provider: cfg.str('sms', 'provider'),
    interval: limits.interval,
    site_last_hour: await countSent(db, { since: hourAgo }),
    site_hourly_limit: limits.siteHourly,
    sent_last_day: await countSent(db, { since: dayAgo, status: SmsStatus.Sent }),
    failed_last_day: await countSent(db, { since: dayAgo, status: SmsStatus.Failed }),
    mobile_last_day: mobile ? await countSent(db, { since: dayAgo, mobile }) : 0,
    mobile_daily_limit: limits.mobileDaily,
    ip_last_hour: ip ? await countSent(db, { since: hourAgo, client: { ip, ipv6Prefix } }) : 0,
    ip_hourly_limit: limits.ipHourly,
  };
}
