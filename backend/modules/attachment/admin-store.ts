import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now } from '../../db/schema';
import { notFound } from '../../wire/errors';
import { applyPaging, countOf, likePattern, rowOr404 } from '../../wire/request';

// The admin's queries on the `attachment` table (AttachmentAPI): the list, one row, the
// editable columns, and deletion with the question "does any other row still use this file?".
// Retired rows (a replaced avatar: `deleted_at` set) are left out, as gorm's soft delete does.

const MISSING = '附件不存在';

export async function attachmentOr404(db: Database, id: number) {
  const row = await rowOr404(db, 'attachment', id, MISSING);
  if (row.deleted_at !== null) throw notFound(MISSING);
  return row;
}

export async function listAttachments(
  db: Database,
  filter: {
    userIds: number[];
    enable: number[];
    types: number[];
    wd: string;
    ext: string;
    page: number;
    size: number;
  },
) {
  let query = db.selectFrom('attachment').where('deleted_at', 'is', null);
  if (filter.userIds.length) query = query.where('user_id', 'in', filter.userIds);
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.types.length) query = query.where('type', 'in', filter.types);
  if (filter.ext) query = query.where('ext', '=', filter.ext);
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'name', p), like(db, 'description', p)]));
  }
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

export async function updateAttachmentInfo(
  db: Database,
  id: number,
  columns: { name: string; enable: number; description: string },
): Promise<void> {
  await db
    .updateTable('attachment')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function liveAttachmentsByIds(db: Database, ids: number[]) {
  return db.selectFrom('attachment').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

export async function deleteAttachmentRows(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('attachment').where('id', 'in', ids).execute();
}

/** The hashes among `hashes` that some live attachment row still uses. */
export async function hashesInUse(db: Database, hashes: string[]): Promise<Set<string>> {
  if (!hashes.length) return new Set();
  const rows = await db
    .selectFrom('attachment')
    .select('hash')
    .distinct()
    .where('hash', 'in', hashes)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.hash));
}
