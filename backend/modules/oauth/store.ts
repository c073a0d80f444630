import type { Database } from '../../db';
import { databaseNowText } from '../../db/dialect';
import { now } from '../../db/schema';

// The tables of social sign-in: `oauth_state` (single-use states of started sign-ins) and
// `oauth_binding` (which provider account belongs to which user).

/**
 * A started sign-in, valid `ttlMs` by the database's clock: the provider sends the visitor back
 * to any machine, whose own clock may be off the one that started it.
 */
export async function insertState(
  db: Database,
  state: { state: string; provider: string; redirect_uri: string },
  ttlMs: number,
): Promise<void> {
  // Spent and expired states are useless; dropping them here keeps the table small.
  await db.deleteFrom('oauth_state').where('expires_at', '<=', databaseNowText(db)).execute();
  await db
    .insertInto('oauth_state')
    .values({ ...state, expires_at: databaseNowText(db, ttlMs), created_at: databaseNowText(db) })
    .execute();
}

/**
 * Marks the state used if it is known, unused, unexpired and for this provider, and gives
 * its redirect_uri. One UPDATE, so of two requests with the same state only one gets through.
 */
export async function spendState(db: Database, state: string, provider: string): Promise<string | undefined> {
  const row = await db
    .updateTable('oauth_state')
    .set({ used_at: databaseNowText(db) })
    .where('state', '=', state)
    .where('provider', '=', provider)
    .where('used_at', 'is', null)
    .where('expires_at', '>', databaseNowText(db))
    .returning('redirect_uri')
    .executeTakeFirst();
  return row?.redirect_uri;
}

export async function findBinding(db: Database, provider: string, openid: string) {
  return db
    .selectFrom('oauth_binding')
    .select(['id', 'user_id', 'unionid', 'avatar_source', 'avatar'])
    .where('provider', '=', provider)
    .where('openid', '=', openid)
    .executeTakeFirst();
}

export type Binding = NonNullable<Awaited<ReturnType<typeof findBinding>>>;

/** The provider's avatar a member was given a copy of: its address, and the copy's path. */
export interface AvatarCopy {
  avatar_source: string;
  avatar: string;
}

export async function updateBinding(db: Database, id: number, unionid: string, copy?: AvatarCopy): Promise<void> {
  await db
    .updateTable('oauth_binding')
    .set({ unionid, ...copy, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function insertBinding(
  db: Database,
  binding: { provider: string; openid: string; unionid: string; user_id: number } & Partial<AvatarCopy>,
): Promise<void> {
  const ts = now();
  await db
    .insertInto('oauth_binding')
    .values({ ...binding, created_at: ts, updated_at: ts })
    .execute();
}
