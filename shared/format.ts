// Formatters of docs/product.md §9: file sizes, relative times and dates. Dates are computed with
// Intl (present in Node and every supported browser) in an explicit time zone, so the
// same instant prints the same on the server, in tests and in any visitor's browser.

export type DateInput = Date | string | number;

/** The site's audience is in China; pass another IANA zone to show local time elsewhere. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
/** the default (docs/product.md §9) date format. `hh` is the 24-hour clock here, as in the formatter it comes from. */
export const DEFAULT_DATE_FORMAT = 'yyyy-MM-dd hh:mm:ss';
/** The second date format (docs/product.md §9) (dayjs style). */
export const SHORT_DATE_FORMAT = 'YYYY-MM-DD HH:mm';

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/**
 * Bytes in 1024 units from B to YB, at most 2 decimals, trailing zeros dropped, rounded up:
 * 0 → '0 B', 1536 → '1.5 KB', 1234567 → '1.18 MB', 1048577 → '1.01 MB'. Never smaller than
 * it is: a file one byte over a limit of 1 MB reads over it, not "1 MB". Negative or non-finite
 * input → '0 B'.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const last = SIZE_UNITS.length - 1;
  let unit = Math.min(last, Math.max(0, Math.floor(Math.log(bytes) / Math.log(1024))));
  // A power of two divides exactly: the hundredths are rounded up from the size's own value.
  const hundredths = (power: number) => Math.ceil((bytes / 1024 ** power) * 100);
  // 1048575 B is 1023.999… KB, which rounds up to 1024 KB: say 1 MB instead.
  if (hundredths(unit) >= 1024 * 100 && unit < last) unit += 1;
  return `${hundredths(unit) / 100} ${SIZE_UNITS[unit]}`;
}

function toTime(date: DateInput): number {
  return date instanceof Date ? date.getTime() : new Date(date).getTime();
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/**
 * How long ago `date` was, seen at `now`: 刚刚 under a minute (and for future times), then
 * N分钟前, N小时前, N天前, N个月前 (30-day months), N年前 (365-day years). Invalid input → ''.
 */
export function formatRelativeTime(date: DateInput, now: DateInput = Date.now()): string {
  const then = toTime(date);
  const at = toTime(now);
  if (Number.isNaN(then) || Number.isNaN(at)) return '';
  const seconds = (at - then) / 1000;
  if (seconds < MINUTE) return '刚刚';
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)} 分钟前`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)} 小时前`;
  if (seconds < MONTH) return `${Math.floor(seconds / DAY)} 天前`;
  if (seconds < YEAR) return `${Math.floor(seconds / MONTH)} 个月前`;
  return `${Math.floor(seconds / YEAR)} 年前`;
}

interface DateParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(time: number, timeZone: string): DateParts {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown zone: a programming error, not a data error.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(time)) parts[part.type] = part.value;
  return parts as unknown as DateParts;
}

const TOKENS = /\[([^\]]*)\]|yyyy|YYYY|yy|YY|MM|M|dd|DD|d|D|HH|hh|H|h|mm|m|ss|s/g;

/**
 * A date in `format`, in `timeZone` (IANA name). Tokens: yyyy/YYYY year, yy/YY two-digit
 * year, MM/M month, dd/DD/d/D day, HH/hh/H/h hour on the 24-hour clock (both cases, so
 * the product's `yyyy-MM-dd hh:mm:ss` and `YYYY-MM-DD HH:mm` read alike), mm/m minute, ss/s
 * second; text in [brackets] is literal. Invalid dates give ''.
 */
export function formatDate(
  date: DateInput,
  format: string = DEFAULT_DATE_FORMAT,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const time = toTime(date);
  if (Number.isNaN(time)) return '';
  const p = partsIn(time, timeZone);
  const unpad = (value: string) => String(Number(value));
  return format.replace(TOKENS, (token: string, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'yyyy':
      case 'YYYY':
        return p.year;
      case 'yy':
      case 'YY':
        return p.year.slice(-2);
      case 'MM':
        return p.month;
      case 'M':
        return unpad(p.month);
      case 'dd':
      case 'DD':
        return p.day;
      case 'd':
      case 'D':
        return unpad(p.day);
      case 'HH':
      case 'hh':
        return p.hour;
      case 'H':
      case 'h':
        return unpad(p.hour);
      case 'mm':
        return p.minute;
      case 'm':
        return unpad(p.minute);
      case 'ss':
        return p.second;
      default:
        return unpad(p.second);
    }
  });
}
