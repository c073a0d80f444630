import type { Database } from '../../db';
import { now } from '../../db/schema';
import { settingsChanged } from '../../platform/config-store';
import { countPublishedArticles } from '../article/service';
import { countComments } from '../comment/service';
import { countListedDocuments } from '../document/service';
import { countReports } from '../report/service';

// The `config` table: one row per key, its value a string typed by `input_type`. Reading for
// the app's use goes through platform/config-store.ts (cached); these are the admin's queries.

export async function findConfigRow(db: Database, id: number) {
  return db.selectFrom('config').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function configRowsOf(db: Database, categories: string[]) {
  return db
    .selectFrom('config')
    .selectAll()
    .where('category', 'in', categories)
    .orderBy('sort', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function setConfigValues(db: Database, updates: { id: number; value: string }[]): Promise<void> {
  const ts = now();
  for (const { id, value } of updates)
    await db.updateTable('config').set({ value, updated_at: ts }).where('id', '=', id).execute();
  await settingsChanged(db);
}

export async function setConfigValue(db: Database, category: string, name: string, value: string): Promise<void> {
  await db
    .updateTable('config')
    .set({ value, updated_at: now() })
    .where('category', '=', category)
    .where('name', '=', name)
    .execute();
  await settingsChanged(db);
}

/**
/** Rows of the content tables for the dashboard, each counted by its module. */
export async function countContent(db: Database) {
  return {
    documents: await countListedDocuments(db),
    articles: await countPublishedArticles(db),
    comments: await countComments(db),
    reports: await countReports(db),
  };
}
