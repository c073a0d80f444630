import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../db';
import { like, notBelowZero, tablesWithColumn } from '../../db/dialect';
import { now, type UserTable } from '../../db/schema';
import { passwordChanged } from '../../platform/auth/session';
import { escapeHtml } from '../../platform/search/highlight';
import { countOf, likePattern, offsetOf, parseOrder, rowOr404 } from '../../wire/request';
import { memberIds } from '../group/service';

// The tables of the user module: `user` and the activity log `dynamic` (the daily check-ins
// `sign` and the registration codes `email_code` belong to the account module).
// `user.mobile` is a normalised mainland number, unique among accounts (migration 009).

export type UserRow = Selectable<UserTable>;

/** Columns of a user visible to everybody (GetUser of another user without permission). */
export const PUBLIC_PROFILE_COLUMNS = [
  'id',
  'username',
  'avatar',
  'signature',
  'doc_count',
  'follow_count',
  'fans_count',
  'favorite_count',
  'comment_count',
  'credit_count',
  'article_count',
] as const;

/**
 * Columns of a user in ListUser without the ListUser permission. MOREDOC adds `realname`, so
 * that anybody could read every member's real name from the list: left out, as GetUser does.
 */
export const PUBLIC_LIST_COLUMNS = [
  'id',
  'username',
  'signature',
  'avatar',
  'doc_count',
  'follow_count',
  'fans_count',
  'favorite_count',
  'comment_count',
  'created_at',
  'updated_at',
  'login_at',
  'credit_count',
] as const;

const USER_COLUMNS = [
  'id',
  'username',
  'mobile',
  'email',
  'address',
  'signature',
  'last_login_ip',
  'register_ip',
  'doc_count',
  'follow_count',
  'fans_count',
  'favorite_count',
  'comment_count',
  'avatar',
  'identity',
  'realname',
  'credit_count',
  'article_count',
  'remark',
  'login_at',
  'created_at',
  'updated_at',
] as const;

/** The row without its password hash. */
export function withoutPassword(row: UserRow): Omit<UserRow, 'password'> {
  const { password: _password, ...rest } = row;
  return rest;
}

export type PublicProfile = Pick<UserRow, (typeof PUBLIC_PROFILE_COLUMNS)[number]>;

/** The public columns of these users by id: the authors shown beside articles and comments. */
export async function publicProfilesOf(db: Database, ids: readonly number[]): Promise<Map<number, PublicProfile>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  const rows = unique.length
    ? await db.selectFrom('user').select(PUBLIC_PROFILE_COLUMNS).where('id', 'in', unique).execute()
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The article module keeps each author's `article_count` (the member's own summary shows it). */
export async function setArticleCount(db: Database, id: number, count: number): Promise<void> {
  await db.updateTable('user').set({ article_count: count }).where('id', '=', id).execute();
}

export const userOr404 = (db: Database, id: number) => rowOr404(db, 'user', id, '用户不存在');

export async function getUser(db: Database, id: number): Promise<UserRow> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function findUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('username', '=', username).executeTakeFirst();
}

/** The account a (normalised) mobile number is bound to. */
export async function findUserByMobile(db: Database, mobile: string): Promise<UserRow | undefined> {
  if (!mobile) return undefined;
  return db.selectFrom('user').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

/**
 * The account an e-mail address signs in, in any letter case (members type `Zhang@QQ.com` for
 * `zhang@qq.com`): stored addresses are unique as written only, so the exact one wins, and
 * two that differ in case alone sign in neither.
 */
export async function findUserBySignInEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .selectFrom('user')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .limit(3)
    .execute();
  return rows.find((row) => row.email === email) ?? (rows.length === 1 ? rows[0] : undefined);
}

/** Whether an account still signs in with the password the first start generated and printed. */
export async function initialPasswordUnchanged(db: Database): Promise<boolean> {
  const row = await db
    .selectFrom('initial_password as ip')
    .innerJoin('user as u', 'u.id', 'ip.user_id')
    .select('u.id')
    .whereRef('u.password', '=', 'ip.password')
    .executeTakeFirst();
  return row !== undefined;
}

export async function mobileTaken(db: Database, mobile: string, exceptUserId = 0): Promise<boolean> {
  if (!mobile) return false;
  const row = await db
    .selectFrom('user')
    .select('id')
    .where('mobile', '=', mobile)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findUserByEmail(db: Database, email: string) {
  return db
    .selectFrom('user')
    .select(['id', 'username', 'password', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function emailTaken(db: Database, email: string, exceptUserId = 0): Promise<boolean> {
  if (!email) return false;
  const row = await db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Those of `ids` that are users. */
export async function existingUserIds(db: Database, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('user').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function usernamesOf(db: Database, ids: number[]): Promise<Map<number, string>> {
  const users = ids.length
    ? await db
        .selectFrom('user')
        .select(['id', 'username'])
        .where('id', 'in', [...new Set(ids)])
        .execute()
    : [];
  return new Map(users.map((u) => [u.id, u.username]));
}

/** Ids of the users whose name contains `wd` (MOREDOC's LIKE rule), at most `limit`, for other modules' searches. */
export async function userIdsMatching(db: Database, wd: string, limit = 1000): Promise<number[]> {
  const rows = await db
    .selectFrom('user')
    .select('id')
    .where(like(db, 'username', likePattern(wd)))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export const countUsers = (db: Database) => countOf(db.selectFrom('user'));

export type NewUser = Omit<Insertable<UserTable>, 'id' | 'created_at' | 'updated_at'>;

export async function insertUser(db: Database, values: NewUser): Promise<UserRow> {
  const ts = now();
  return db
    .insertInto('user')
    .values({ ...values, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

type ProfileColumns = Partial<
  Pick<UserRow, 'mobile' | 'email' | 'address' | 'signature' | 'avatar' | 'realname' | 'identity' | 'remark'>
>;

export async function updateProfile(db: Database, id: number, columns: ProfileColumns): Promise<void> {
  await db
    .updateTable('user')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/**
 * A new password; the user's sessions opened before it end, but for `keptSession` (the token UUID of
 * the session that changed its own password).
 */
export async function setPassword(
  db: Database,
  id: number,
  passwordHash: string,
  keptSession: string | null = null,
): Promise<void> {
  await db
    .updateTable('user')
    .set({ password: passwordHash, updated_at: now(), ...(await passwordChanged(db, keptSession)) })
    .where('id', '=', id)
    .execute();
}

/**
 * setPassword, but only while the password is still `currentHash` (what a reset link was issued
 * for): whether it was set. Of two resets with one link at once, through any process, one sets it.
 */
export async function replacePassword(
  db: Database,
  id: number,
  currentHash: string,
  passwordHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ password: passwordHash, updated_at: now(), ...(await passwordChanged(db, null)) })
    .where('id', '=', id)
    .where('password', '=', currentHash)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function recordLogin(db: Database, id: number, ip: string): Promise<void> {
  await db.updateTable('user').set({ login_at: now(), last_login_ip: ip }).where('id', '=', id).execute();
}

export async function addCredit(db: Database, id: number, amount: number): Promise<void> {
  await db
    .updateTable('user')
    .set((eb) => ({ credit_count: eb('credit_count', '+', amount) }))
    .where('id', '=', id)
    .execute();
}

/**
 * Takes up to `amount` credits away, never below zero (a deleted upload's reward), and says how
 * many it took, for the dynamic that records it. The caller has locked the user's row.
 */
export async function deductCredit(db: Database, id: number, amount: number): Promise<number> {
  const row = await db.selectFrom('user').select('credit_count').where('id', '=', id).executeTakeFirst();
  await db
    .updateTable('user')
    .set({ credit_count: notBelowZero(db, sql<number>`credit_count - ${amount}`) })
    .where('id', '=', id)
    .execute();
  return Math.min(Math.max(row?.credit_count ?? 0, 0), amount);
}

/** Sets `doc_count` of each user (the document module counts their live documents). */
export async function setDocCounts(db: Database, counts: ReadonlyMap<number, number>): Promise<void> {
  for (const [id, count] of counts)
    await db.updateTable('user').set({ doc_count: count }).where('id', '=', id).execute();
}

/** Sets `comment_count` of each user (the comment module counts their approved comments). */
export async function setCommentCounts(db: Database, counts: ReadonlyMap<number, number>): Promise<void> {
  for (const [id, count] of counts)
    await db.updateTable('user').set({ comment_count: count }).where('id', '=', id).execute();
}

/** Moves the user's favourites counter by `delta`, never below zero. */
export async function bumpFavoriteCount(db: Database, id: number, delta: number): Promise<void> {
  await db
    .updateTable('user')
    .set({ favorite_count: notBelowZero(db, sql<number>`favorite_count + ${delta}`) })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes `amount` credits from the user only if they have that many: one conditional UPDATE,
 * so two concurrent spends can never leave a balance below zero. False when refused.
 */
export async function spendCredits(db: Database, id: number, amount: number): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set((eb) => ({ credit_count: eb('credit_count', '-', amount) }))
    .where('id', '=', id)
    .where('credit_count', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the users and, from every table with a user_id column, their rows (MOREDOC does the same). */
export async function deleteUsers(db: Database, ids: number[]): Promise<void> {
  for (const name of await tablesWithColumn(db, 'user_id')) {
    await sql`DELETE FROM ${sql.table(name)} WHERE user_id IN (${sql.join(ids)})`.execute(db);
  }
  await db.deleteFrom('user').where('id', 'in', ids).execute();
}

/** One page of users (`total` only when asked for); `wd` searches name, real name, e-mail and mobile. */
export async function listUsers(
  db: Database,
  filter: {
    ids: number[];
    groupIds: number[];
    wd: string;
    sort: string;
    page: number;
    size: number;
    withTotal: boolean;
  },
) {
  let query = db.selectFrom('user');
  if (filter.ids.length) query = query.where('user.id', 'in', filter.ids);
  if (filter.groupIds.length) query = query.where('user.id', 'in', memberIds(db, filter.groupIds));
  if (filter.wd.trim()) {
    const pattern = likePattern(filter.wd);
    query = query.where((eb) =>
      eb.or(['username', 'realname', 'email', 'mobile'].map((c) => like(db, sql.ref(`user.${c}`), pattern))),
    );
  }
  const order = parseOrder(filter.sort, USER_COLUMNS, { nullable: ['login_at'] });
  let rowsQuery = query.selectAll('user');
  for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }])
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  const rows = await rowsQuery.limit(filter.size).offset(offsetOf(filter.page, filter.size)).execute();
  return { rows, total: filter.withTotal ? await countOf(query) : undefined };
}

/** Dynamic (activity) types (docs/moredoc.md §12). */
export const DynamicType = {
  Comment: 1,
  Favorite: 2,
  Upload: 3,
  Download: 4,
  Login: 5,
  Register: 6,
  Avatar: 7,
  Password: 8,
  Profile: 9,
  Identity: 10,
  Sign: 11,
  Share: 12,
  Follow: 13,
  DeleteDocument: 14,
  /** Ours: another member's paid download of the user's document, with the credits it earned. */
  DocumentDownloaded: 15,
  /** Ours: an admin added or took away credits, with the reason given (docs/decisions/076). */
  CreditAdjusted: 16,
  /** Ours: another member's favourite of the user's document, with the credits it earned (score.document_collected). */
  DocumentFavorited: 17,
  /** Ours: another member's comment on the user's document, with the credits it earned (score.document_commented). */
  DocumentCommented: 18,
} as const;

/**
 * A document's or article's title as a dynamic quotes it. A dynamic's content is HTML, as
 * MOREDOC writes it (`html.EscapeString` of the title, inside a link) and as clients read it
 * (MOREDOC's shows it as HTML, ours takes its text): a title written raw ran as markup in the
 * one and lost its `<…>` in the other.
 */
export function dynamicTitle(title: string): string {
  return escapeHtml(title);
}

/** `N <credits>` in a dynamic: the credits' name is the admin's text, escaped as a title is. */
export function dynamicCredits(amount: number, creditName: string): string {
  return `${amount} ${escapeHtml(creditName)}`;
}

/** `获得 N <credits>奖励` in a dynamic. */
export function dynamicReward(award: number, creditName: string): string {
  return `获得 ${dynamicCredits(award, creditName)}奖励`;
}

export async function addDynamic(db: Database, userId: number, type: number, content: string): Promise<void> {
  const ts = now();
  await db.insertInto('dynamic').values({ user_id: userId, type, content, created_at: ts, updated_at: ts }).execute();
}

export async function listDynamics(db: Database, userId: number, page: number, size: number) {
  const rows = await db
    .selectFrom('dynamic')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(size)
    .offset(offsetOf(page, size))
    .execute();
  return { rows, total: await countOf(db.selectFrom('dynamic').where('user_id', '=', userId)) };
}
