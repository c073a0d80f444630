import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now } from '../../db/schema';
import { settingsChanged } from '../../platform/config-store';
import { countOf, likePattern, offsetOf } from '../../wire/request';

// The `language` table: the languages a document can be in. The public settings list the
// enabled ones and are cached under the settings' change counter: every write here bumps it.

export const LANGUAGE_COLUMNS = ['id', 'language', 'enable', 'code', 'total', 'sort', 'created_at', 'updated_at'];

export async function insertLanguage(
  db: Database,
  columns: { language: string; code: string; enable: number; sort: number },
): Promise<void> {
  const ts = now();
  await db
    .insertInto('language')
    .values({ ...columns, created_at: ts, updated_at: ts })
    .execute();
  await settingsChanged(db);
}

/** False when there is no such language. */
export async function updateLanguage(
  db: Database,
  id: number,
  columns: { language: string; enable: number; sort: number },
): Promise<boolean> {
  const result = await db
    .updateTable('language')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .executeTakeFirst();
  await settingsChanged(db);
  return result.numUpdatedRows > 0;
}

export async function setLanguagesEnabled(db: Database, ids: number[], enable: number): Promise<void> {
  await db.updateTable('language').set({ enable, updated_at: now() }).where('id', 'in', ids).execute();
  await settingsChanged(db);
}

export async function deleteLanguages(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('language').where('id', 'in', ids).execute();
  await settingsChanged(db);
}

export async function listLanguages(
  db: Database,
  filter: { enable: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('language');
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'language', p), like(db, 'code', p)]));
  }
  const rows = await query
    .selectAll()
    .orderBy('enable', 'desc')
    .orderBy('sort', 'desc')
    .orderBy('id', 'asc')
    .limit(filter.size)
    .offset(offsetOf(filter.page, filter.size))
    .execute();
  return { rows, total: await countOf(query) };
}

/** The enabled languages as the public settings list them. */
export async function enabledLanguages(db: Database) {
  return db
    .selectFrom('language')
    .select(['id', 'language', 'code'])
    .where('enable', '=', 1)
    .orderBy('enable', 'desc')
    .orderBy('sort', 'desc')
    .orderBy('id', 'asc')
    .execute();
}
