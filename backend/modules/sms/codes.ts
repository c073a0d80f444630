import crypto from 'node:crypto';
import { SMS_CODE_MAX_ATTEMPTS, SMS_CODE_TTL_MINUTES, type SmsCodePurpose } from '../../../shared/constants';
import { SMS_CODE_PATTERN } from '../../../shared/validation';
import type { Database } from '../../db';
import { databaseNow } from '../../db/dialect';
import { badRequest } from '../../wire/errors';
import { countWrongAttempt, insertCode, latestCode, markCodeUsed, pruneCodes } from './store';

// Verification codes: 6 random digits, valid SMS_CODE_TTL_MINUTES, single use, at most
// SMS_CODE_MAX_ATTEMPTS wrong tries, and stored only as a salted SHA-256 (a leaked table
// gives no code away). Only the newest code of a number and purpose counts.

export const CODE_TTL_MS = SMS_CODE_TTL_MINUTES * 60 * 1000;
/** Codes are kept a day past their expiry, then pruned when new ones are issued. */
const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

const digest = (salt: string, mobile: string, purpose: string, code: string) =>
  crypto.createHash('sha256').update(`${salt}:${mobile}:${purpose}:${code}`).digest('hex');

function hashCode(mobile: string, purpose: string, code: string): string {
  const salt = crypto.randomBytes(16).toString('hex');
  return `${salt}$${digest(salt, mobile, purpose, code)}`;
}

function codeMatches(stored: string, mobile: string, purpose: string, code: string): boolean {
  const [salt = '', hash = ''] = stored.split('$');
  const expected = Buffer.from(digest(salt, mobile, purpose, code), 'hex');
  const actual = Buffer.from(hash, 'hex');
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/**
 * A fresh code for the number and purpose (it replaces any earlier one); the caller sends it.
 * `at`: the database's now, which spendCode compares the expiry with (one machine sends, another checks).
 */
export async function issueCode(db: Database, mobile: string, purpose: SmsCodePurpose, at: Date): Promise<string> {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const issuedAt = at.getTime();
  await pruneCodes(db, new Date(issuedAt - CODE_RETENTION_MS).toISOString());
  await insertCode(db, {
    mobile,
    purpose,
    code_hash: hashCode(mobile, purpose, code),
    created_at: new Date(issuedAt).toISOString(),
    expires_at: new Date(issuedAt + CODE_TTL_MS).toISOString(),
  });
  return code;
}

/**
 * Checks the code the member typed against the newest one sent to `mobile` for `purpose`
 * and spends it. A wrong code counts against the code's tries; every refusal is a 400 with
 * a Chinese message saying what to do. Call it after the request's other checks and
 * before its writes: a spent code stays spent even if the writes fail.
 */
export async function spendCode(db: Database, mobile: string, purpose: SmsCodePurpose, code: string): Promise<void> {
  const typed = code.trim();
  if (!SMS_CODE_PATTERN.test(typed)) throw badRequest('请输入 6 位数字短信验证码');
  const latest = await latestCode(db, mobile, purpose);
  if (!latest) throw badRequest('请先获取短信验证码');
  if (latest.used_at) throw badRequest('短信验证码已使用，请重新获取');
  if (latest.attempts >= SMS_CODE_MAX_ATTEMPTS) throw badRequest('短信验证码错误次数过多，请重新获取');
  if (Date.parse(latest.expires_at) <= (await databaseNow(db)).getTime())
    throw badRequest('短信验证码已过期，请重新获取');
  if (!codeMatches(latest.code_hash, mobile, purpose, typed)) {
    const counted = await countWrongAttempt(db, latest.id, SMS_CODE_MAX_ATTEMPTS);
    const left = SMS_CODE_MAX_ATTEMPTS - latest.attempts - 1;
    if (!counted || left <= 0) throw badRequest('短信验证码错误次数过多，请重新获取');
    throw badRequest(`短信验证码错误，还可尝试 ${left} 次`);
  }
  if (!(await markCodeUsed(db, latest.id, SMS_CODE_MAX_ATTEMPTS))) throw badRequest('短信验证码已使用，请重新获取');
}
