// The two search engines behind one face, for the contract suite of the SearchIndex interface
// (tests/backend/search-index.test.ts) and the test that compares them: each store is a fresh,
// empty database (a SQLite file in a temporary folder, or a new database on the test
// PostgreSQL) with the engine's 'document' index on it, and the few ways a test reaches under
// the interface (the stored heads, an old tokenizer's tokens) done in each engine's SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openDatabase, type OpenedDatabase } from '../../backend/db';
import { foldText, normalizeText, scanTokens } from '../../backend/platform/search/bigrams';
import { PostgresSearchIndex } from '../../backend/platform/search/postgres-search-index';
import { tsvectorOf } from '../../backend/platform/search/tsvectors';
import type { SearchCollection, SearchIndex } from '../../backend/platform/search/search-index';
import { SqliteSearchIndex } from '../../backend/platform/search/sqlite-search-index';
import { dropDatabase, freshDatabase } from './postgres';
import { openMigratedSqlite } from './test-database';

export type TestIndex = SearchIndex & {
  rebuild(): Promise<void>;
  upgrade(options?: { batch?: number; stopped?: () => boolean }): Promise<boolean>;
};

export interface SearchStore {
  /** The 'document' index, opened when the store was (a new one after reopen()). */
  index: TestIndex;
  /** Another engine object on the same database. */
  open(collection: SearchCollection): TestIndex;
  /** Closes the database and opens it again; `index` is then a new engine object. */
  reopen(): Promise<void>;
  close(): Promise<void>;
  needsRebuild(index: TestIndex): Promise<boolean>;
  /** The stored heads of long texts: (id, byte length of the text). */
  headRows(): Promise<{ id: number; size: number }[]>;
  /** Changes an entry's stored text behind the index's back. */
  replaceInStoredText(id: number, from: string, to: string): Promise<void>;
  setTokenizerVersion(version: number): Promise<void>;
  /** Drops the column of how much of each stored text a snippet may show, as an index made before it was kept. */
  dropShownColumn(): Promise<void>;
  /** Loses the tokens of every column (the tier tables keep theirs). */
  dropAllColumnTokens(): Promise<void>;
  /** The entry's tokens as tokenizer version 1 wrote them: bigrams only, in title and content. */
  writeVersionOneTokens(id: number, fields: { title: string; content: string }): Promise<void>;
  /** The ids whose title and keywords hold this one token. */
  titleMatches(token: string): Promise<number[]>;
}

export interface SearchEngine {
  name: string;
  /** Why it cannot run here, or '' */
  missing: string;
  open(): Promise<SearchStore>;
}

/** A text's tokens as version 1 of the tokenizer made them: bigrams only, no dictionary words. */
function bigramsOf(text: string): string[] {
  const terms: string[] = [];
  scanTokens(foldText(normalizeText(text)), (term) => terms.push(term));
  return terms;
}

async function sqliteStore(): Promise<SearchStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-search-'));
  let opened: OpenedDatabase = await openMigratedSqlite(dataDir);
  const store: SearchStore = {
    index: new SqliteSearchIndex(opened.sqlite, 'document'),
    open: (collection) => new SqliteSearchIndex(opened.sqlite, collection),
    async reopen() {
      await opened.db.destroy();
      opened = await openDatabase(dataDir);
      store.index = new SqliteSearchIndex(opened.sqlite, 'document');
    },
    async close() {
      await opened.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    needsRebuild: async (index) => (index as SqliteSearchIndex).needsRebuild,
    headRows: async () =>
      opened.sqlite.prepare('SELECT id, size FROM search_document_text_head ORDER BY id').all() as {
        id: number;
        size: number;
      }[],
    async replaceInStoredText(id, from, to) {
      opened.sqlite
        .prepare('UPDATE search_document_text SET content = replace(content, ?, ?) WHERE id = ?')
        .run(from, to, id);
    },
    async setTokenizerVersion(version) {
      opened.sqlite.prepare("UPDATE search_meta SET tokenizer_version = ? WHERE collection = 'document'").run(version);
    },
    async dropShownColumn() {
      opened.sqlite.exec('ALTER TABLE search_document_text DROP COLUMN shown_bytes');
    },
    async dropAllColumnTokens() {
      opened.sqlite.prepare("INSERT INTO search_document_fts (search_document_fts) VALUES ('delete-all')").run();
    },
    async writeVersionOneTokens(id, fields) {
      const [title, content] = [bigramsOf(fields.title).join(' '), bigramsOf(fields.content).join(' ')];
      for (const table of ['search_document_fts', 'search_document_head_fts', 'search_document_summary_fts'])
        opened.sqlite.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(id);
      opened.sqlite
        .prepare(
          'INSERT INTO search_document_fts (rowid, title, keywords, description, content) VALUES (?, ?, ?, ?, ?)',
        )
        .run(id, title, '', '', content);
      opened.sqlite
        .prepare('INSERT INTO search_document_head_fts (rowid, title, keywords) VALUES (?, ?, ?)')
        .run(id, title, '');
      opened.sqlite.prepare('INSERT INTO search_document_summary_fts (rowid, description) VALUES (?, ?)').run(id, '');
    },
    titleMatches: async (token) =>
      (
        opened.sqlite
          .prepare(
            'SELECT rowid AS id FROM search_document_head_fts WHERE search_document_head_fts MATCH ? ORDER BY rowid',
          )
          .all(`"${token}"`) as { id: number }[]
      ).map((row) => row.id),
  };
  return store;
}

/** A Kysely on its own pool of the PostgreSQL database at `url`. */
export function postgresKysely(url: string): Kysely<unknown> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // A connection still closing when dropDatabase() forces the others out hears the server's
  // "terminating connection" (57P01) on its way out: no failure of the test.
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') throw error;
  });
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

async function postgresStore(clusterUrl: string): Promise<SearchStore> {
  const url = await freshDatabase(clusterUrl);
  let db = postgresKysely(url);
  const run = async <Row>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const store: SearchStore = {
    index: new PostgresSearchIndex(db, 'document'),
    open: (collection) => new PostgresSearchIndex(db, collection),
    async reopen() {
      await db.destroy();
      db = postgresKysely(url);
      store.index = new PostgresSearchIndex(db, 'document');
    },
    async close() {
      await db.destroy();
      await dropDatabase(url);
    },
    needsRebuild: (index) => (index as PostgresSearchIndex).needsRebuild(),
    headRows: async () =>
      (await run<{ id: string; size: number }>('SELECT id, size FROM search_document_text_head ORDER BY id')).map(
        (row) => ({ id: Number(row.id), size: row.size }),
      ),
    async replaceInStoredText(id, from, to) {
      await run(
        "UPDATE search_document_text SET content = convert_to(replace(convert_from(content, 'UTF8'), $1, $2), 'UTF8') WHERE id = $3",
        [from, to, id],
      );
    },
    async setTokenizerVersion(version) {
      await run("UPDATE search_meta SET tokenizer_version = $1 WHERE collection = 'document'", [version]);
    },
    async dropShownColumn() {
      await run('ALTER TABLE search_document_text DROP COLUMN shown_bytes');
    },
    async dropAllColumnTokens() {
      await run('TRUNCATE search_document_fts, search_document_fts_more');
    },
    async writeVersionOneTokens(id, fields) {
      const [title, content] = [bigramsOf(fields.title), bigramsOf(fields.content)];
      const rows: [string, string][] = [
        [
          'search_document_fts',
          tsvectorOf([
            { terms: title, weight: 'A' },
            { terms: [], weight: 'B' },
            { terms: [], weight: 'C' },
            { terms: content, weight: 'D' },
          ]),
        ],
        ['search_document_head', tsvectorOf([{ terms: title, weight: 'A' }])],
        ['search_document_summary', ''],
      ];
      for (const [table, tokens] of rows)
        await run(`UPDATE ${table} SET tokens = $1::tsvector WHERE id = $2`, [tokens, id]);
      await run('UPDATE search_document_fts SET parts = 1 WHERE id = $1', [id]);
      await run('DELETE FROM search_document_fts_more WHERE id = $1', [id]);
    },
    titleMatches: async (token) =>
      (
        await run<{ id: string }>('SELECT id FROM search_document_head WHERE tokens @@ $1::tsquery ORDER BY id', [
          `'${token}'`,
        ])
      ).map((row) => Number(row.id)),
  };
  return store;
}

/** SQLite always; PostgreSQL where the test cluster runs (`inject('postgresUrl')`, '' when it does not). */
export function searchEngines(postgresUrl: string): SearchEngine[] {
  return [
    { name: 'SQLite', missing: '', open: sqliteStore },
    { name: 'PostgreSQL', missing: postgresUrl ? '' : 'no PostgreSQL here', open: () => postgresStore(postgresUrl) },
  ];
}
