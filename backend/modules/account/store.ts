import type { Database } from '../../db';
import { now } from '../../db/schema';
import { countFromClient } from '../../wire/request';

// The tables of the account flows: the daily check-ins `sign` and the registration codes
// `email_code` (the users themselves are the user module's).

/**
 * Local calendar date as the integer YYYYMMDD (MOREDOC's sign-in key). `date`: the database's
 * now, so that every machine starts the day at the same moment (one check-in a day, whichever
 * machine takes it).
 */
export function localDateKey(date: Date): number {
  return date.getFullYear() * 10000 + (date.getMonth() + 1) * 100 + date.getDate();
}

/** Records a check-in; the unique (user_id, sign_at) index refuses a second one the same day. */
export async function insertSign(db: Database, sign: { user_id: number; sign_at: number; ip: string; award: number }) {
  const ts = now();
  return db
    .insertInto('sign')
    .values({ ...sign, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSign(db: Database, userId: number, signAt: number) {
  return db
    .selectFrom('sign')
    .selectAll()
    .where('user_id', '=', userId)
    .where('sign_at', '=', signAt)
    .executeTakeFirst();
}

/** What an `email_code` row was mailed for (MOREDOC's types): a registration code, a password-reset link. */
export const EmailCodeType = { Register: 0, FindPassword: 1 } as const;
type EmailCodeKind = (typeof EmailCodeType)[keyof typeof EmailCodeType];

/** The mails of one type sent to an address, newest first; `unusedOnly` skips spent ones. */
export async function latestEmailCode(
  db: Database,
  email: string,
  unusedOnly: boolean,
  type: EmailCodeKind = EmailCodeType.Register,
) {
  let query = db.selectFrom('email_code').selectAll().where('email', '=', email).where('type', '=', type);
  if (unusedOnly) query = query.where('is_used', '=', 0);
  return query.orderBy('id', 'desc').executeTakeFirst();
}

/** The mails of one type a client (countFromClient) had sent since `since`. */
export async function countEmailCodesFrom(
  db: Database,
  client: { ip: string; ipv6Prefix: number },
  since: string,
  type: EmailCodeKind = EmailCodeType.Register,
): Promise<number> {
  const sent = db.selectFrom('email_code').where('created_at', '>=', since).where('type', '=', type);
  return countFromClient(db, sent, client.ip, client.ipv6Prefix);
}

/**
 * Records a mail about to go out (a reset link keeps no code: its token is signed). `at`: the
 * database's now, which the code's lifetime and the next mail's interval are counted from.
 */
export async function insertEmailCode(
  db: Database,
  code: { email: string; code: string; ip: string; type?: EmailCodeKind },
  at: Date,
): Promise<number> {
  const ts = at.toISOString();
  const row = await db
    .insertInto('email_code')
    .values({ type: EmailCodeType.Register, ...code, created_at: ts, updated_at: ts })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the record of a mail that did not go out (the SMTP server refused it): it holds back no retry. */
export async function deleteEmailCode(db: Database, id: number): Promise<void> {
  await db.deleteFrom('email_code').where('id', '=', id).execute();
}

/** Records that the mail went out. */
export async function markEmailCodeSent(db: Database, id: number): Promise<void> {
  await db.updateTable('email_code').set({ success: 1 }).where('id', '=', id).execute();
}

/** Counts a wrong try of a register code unless it has had `maxAttempts` already. */
export async function countWrongEmailCode(db: Database, id: number, maxAttempts: number): Promise<void> {
  await db
    .updateTable('email_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .execute();
}

/** Spends an unused register code with fewer than `maxAttempts` wrong tries; false when it cannot be spent. */
export async function spendEmailCode(db: Database, id: number, maxAttempts: number): Promise<boolean> {
  const result = await db
    .updateTable('email_code')
    .set({ is_used: 1, updated_at: now() })
    .where('id', '=', id)
    .where('is_used', '=', 0)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
