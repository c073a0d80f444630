import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatRelativeTime } from '../../shared/format';

describe('formatBytes', () => {
  it('uses 1024 units from B to YB with at most 2 decimals', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1)).toBe('1 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1234567)).toBe('1.18 MB');
    expect(formatBytes(2.5 * 1024 ** 3)).toBe('2.5 GB');
    expect(formatBytes(1024 ** 4)).toBe('1 TB');
    expect(formatBytes(1024 ** 5)).toBe('1 PB');
    expect(formatBytes(1024 ** 6)).toBe('1 EB');
    expect(formatBytes(1024 ** 7)).toBe('1 ZB');
    expect(formatBytes(1024 ** 8)).toBe('1 YB');
  });

  it('rounds up, so a size just over a unit never reads as that unit', () => {
    expect(formatBytes(1024 * 1024 + 1)).toBe('1.01 MB');
    expect(formatBytes(1025)).toBe('1.01 KB');
    expect(formatBytes(1100)).toBe('1.08 KB');
    expect(formatBytes(50 * 1024 * 1024 + 1)).toBe('50.01 MB');
    // A whole unit, and a size at a hundredth, stay as they are.
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.25 GB');
  });

  it('moves to the next unit when rounding reaches 1024, and stops at YB', () => {
    expect(formatBytes(1048575)).toBe('1 MB');
    expect(formatBytes(1024 ** 9)).toBe('1024 YB');
  });

  it('says 0 B for negative or non-finite sizes and keeps fractions of a byte', () => {
    expect(formatBytes(-5)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('0 B');
    expect(formatBytes(0.5)).toBe('0.5 B');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2024-06-15T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const DAY = 86400;

  it('says 刚刚 under a minute, and for times in the future', () => {
    expect(formatRelativeTime(ago(0), now)).toBe('刚刚');
    expect(formatRelativeTime(ago(59), now)).toBe('刚刚');
    expect(formatRelativeTime(ago(-3600), now)).toBe('刚刚');
  });

  it('counts minutes, hours and days', () => {
    expect(formatRelativeTime(ago(60), now)).toBe('1 分钟前');
    expect(formatRelativeTime(ago(59 * 60 + 59), now)).toBe('59 分钟前');
    expect(formatRelativeTime(ago(3600), now)).toBe('1 小时前');
    expect(formatRelativeTime(ago(23 * 3600), now)).toBe('23 小时前');
    expect(formatRelativeTime(ago(DAY), now)).toBe('1 天前');
    expect(formatRelativeTime(ago(29 * DAY), now)).toBe('29 天前');
  });

  it('counts 30-day months and 365-day years', () => {
    expect(formatRelativeTime(ago(30 * DAY), now)).toBe('1 个月前');
    expect(formatRelativeTime(ago(364 * DAY), now)).toBe('12 个月前');
    expect(formatRelativeTime(ago(365 * DAY), now)).toBe('1 年前');
    expect(formatRelativeTime(ago(3 * 365 * DAY), now)).toBe('3 年前');
  });

  it('accepts RFC 3339 strings, milliseconds and the current time by default', () => {
    expect(formatRelativeTime('2024-06-15T19:30:00+08:00', now)).toBe('30 分钟前');
    expect(formatRelativeTime(now.getTime() - 7200_000, now.getTime())).toBe('2 小时前');
    expect(formatRelativeTime(new Date())).toBe('刚刚');
  });

  it('gives an empty string for invalid dates', () => {
    expect(formatRelativeTime('not a date', now)).toBe('');
    expect(formatRelativeTime(now, 'never')).toBe('');
  });
});

describe('formatDate', () => {
  const instant = '2024-01-02T03:04:05Z';

  it('formats yyyy-MM-dd hh:mm:ss by default, in Asia/Shanghai by default', () => {
    expect(formatDate(instant)).toBe('2024-01-02 11:04:05');
    expect(formatDate(instant, 'yyyy-MM-dd hh:mm:ss', 'Asia/Shanghai')).toBe('2024-01-02 11:04:05');
  });

  it('formats the same instant in UTC', () => {
    expect(formatDate(instant, undefined, 'UTC')).toBe('2024-01-02 03:04:05');
    expect(formatDate(instant, 'YYYY-MM-DD HH:mm', 'UTC')).toBe('2024-01-02 03:04');
  });

  it('reads hh as the 24-hour clock, and shows midnight as 00', () => {
    expect(formatDate('2024-01-02T15:04:05Z', 'yyyy-MM-dd hh:mm:ss', 'UTC')).toBe('2024-01-02 15:04:05');
    expect(formatDate('2024-01-02T15:04:05Z', 'yyyy-MM-dd hh:mm:ss', 'Asia/Shanghai')).toBe('2024-01-02 23:04:05');
    expect(formatDate('2024-01-01T16:00:00Z', 'yyyy-MM-dd hh:mm:ss', 'Asia/Shanghai')).toBe('2024-01-02 00:00:00');
    expect(formatDate('2024-01-01T16:00:00Z', 'YYYY-MM-DD HH:mm', 'Asia/Shanghai')).toBe('2024-01-02 00:00');
  });

  it('crosses the date and year line per time zone', () => {
    expect(formatDate('2024-12-31T20:30:00Z', 'YYYY-MM-DD HH:mm', 'Asia/Shanghai')).toBe('2025-01-01 04:30');
    expect(formatDate('2024-12-31T20:30:00Z', 'YYYY-MM-DD HH:mm', 'UTC')).toBe('2024-12-31 20:30');
  });

  it('honours the offset of RFC 3339 input and daylight saving time of the zone', () => {
    expect(formatDate('2024-05-01T10:00:00+08:00', undefined, 'Asia/Shanghai')).toBe('2024-05-01 10:00:00');
    expect(formatDate('2024-05-01T10:00:00+08:00', undefined, 'UTC')).toBe('2024-05-01 02:00:00');
    expect(formatDate('2024-07-01T12:00:00Z', 'HH:mm', 'America/New_York')).toBe('08:00');
    expect(formatDate('2024-01-01T12:00:00Z', 'HH:mm', 'America/New_York')).toBe('07:00');
  });

  it('supports unpadded tokens, two-digit years and bracketed literals', () => {
    expect(formatDate(instant, 'YYYY年M月D日 H:m:s', 'UTC')).toBe('2024年1月2日 3:4:5');
    expect(formatDate(instant, 'yy/MM/dd d h', 'UTC')).toBe('24/01/02 2 3');
    expect(formatDate(instant, '[Day] DD [at] HH:mm', 'UTC')).toBe('Day 02 at 03:04');
  });

  it('accepts Date objects and milliseconds', () => {
    expect(formatDate(new Date(instant), 'YYYY-MM-DD HH:mm', 'UTC')).toBe('2024-01-02 03:04');
    expect(formatDate(Date.parse(instant), 'YYYY-MM-DD HH:mm', 'UTC')).toBe('2024-01-02 03:04');
  });

  it('gives an empty string for invalid dates and throws for an unknown zone', () => {
    expect(formatDate('not a date')).toBe('');
    expect(() => formatDate(instant, undefined, 'Mars/Olympus')).toThrow(RangeError);
  });
});
