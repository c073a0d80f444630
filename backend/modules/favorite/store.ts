import type { Database } from '../../db';
import { applyPaging, countOf } from '../../wire/request';

// The `favorite` table: what a member keeps (documents type 0, articles type 1), with the
// uploader a document favourite rewarded and how much.

export const FavoriteType = { Document: 0, Article: 1 } as const;
export type FavoriteType = (typeof FavoriteType)[keyof typeof FavoriteType];

const PUBLIC_COLUMNS = ['id', 'user_id', 'document_id', 'type', 'created_at', 'updated_at'] as const;

/** `at`: the database's now, the day the owner's daily favourite awards count the row on. */
export async function insertFavorite(
  db: Database,
  row: { userId: number; targetId: number; type: FavoriteType; ownerId: number; award: number },
  at: Date,
) {
  const ts = at.toISOString();
  return db
    .insertInto('favorite')
    .values({
      user_id: row.userId,
      document_id: row.targetId,
      type: row.type,
      owner_id: row.ownerId,
      award: row.award,
      created_at: ts,
      updated_at: ts,
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findFavorite(db: Database, userId: number, targetId: number, type: number) {
  return db
    .selectFrom('favorite')
    .select(PUBLIC_COLUMNS)
    .where('user_id', '=', userId)
    .where('document_id', '=', targetId)
    .where('type', '=', type)
    .executeTakeFirst();
}

/** Deletes the user's own rows among `ids`; returns what they pointed at. */
export async function deleteOwnFavorites(db: Database, userId: number, ids: number[]) {
  return db
    .deleteFrom('favorite')
    .where('id', 'in', ids)
    .where('user_id', '=', userId)
    .returning(['document_id', 'type'])
    .execute();
}

/** How many favourites earned `ownerId` credits since `since`. */
export async function countAwardsSince(db: Database, ownerId: number, since: string): Promise<number> {
  return countOf(
    db.selectFrom('favorite').where('owner_id', '=', ownerId).where('award', '>', 0).where('created_at', '>=', since),
  );
}

/** One page of the user's favourites of one type, newest first. */
export async function listFavorites(db: Database, userId: number, type: number, page: number, size: number) {
  const base = db.selectFrom('favorite').where('user_id', '=', userId).where('type', '=', type);
  const rows = await applyPaging(base.select(PUBLIC_COLUMNS).orderBy('id', 'desc'), page, size).execute();
  return { rows, total: await countOf(base) };
}
