import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { withDatabase, withSearchIndex } from './backend';

// Documents put straight into a backend's DATA_DIR and database, for the tests of downloads
// and favourites that need a document in a given state (price, owner, status, recycle bin)
// without uploading and converting one each time. The flow through the real upload and
// conversion is tested as well (document-access.test.ts; documents/conversion.test.ts with
// the engine converting for real).

export interface DocumentFixture {
  id: number;
  uuid: string;
  hash: string;
  bytes: Buffer;
  title: string;
  ext: string;
}

let counter = 0;

/** Writes the original under documents/<h0>/…/<h4>/<md5><ext> and inserts its document row. */
export async function insertDocument(
  dataDir: string,
  opts: {
    userId: number;
    title?: string;
    ext?: string;
    price?: number;
    status?: number;
    /** 0: not converted yet. */
    pages?: number;
    deletedAt?: string | null;
    bytes?: Buffer;
  },
): Promise<DocumentFixture> {
  counter += 1;
  const bytes = opts.bytes ?? Buffer.concat([Buffer.from('%PDF-1.4\n% fixture\n'), crypto.randomBytes(4096 + counter)]);
  const hash = crypto.createHash('md5').update(bytes).digest('hex');
  const ext = opts.ext ?? '.pdf';
  const file = path.join(dataDir, 'documents', ...hash.slice(0, 5), `${hash}${ext}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  const title = opts.title ?? `测试文档${counter}`;
  const uuid = crypto.randomBytes(8).toString('hex');
  const id = await withDatabase(dataDir, async (db) => {
    const ts = new Date().toISOString();
    const row = await db
      .insertInto('document')
      .values({
        title,
        user_id: opts.userId,
        uuid,
        price: opts.price ?? 0,
        size: bytes.length,
        ext,
        status: opts.status ?? 2,
        pages: opts.pages ?? 3,
        hash,
        created_at: ts,
        updated_at: ts,
        deleted_at: opts.deletedAt ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return { id, uuid, hash, bytes, title, ext };
}

export async function setCredits(dataDir: string, userId: number, credits: number): Promise<void> {
  await withDatabase(dataDir, (db) =>
    db.updateTable('user').set({ credit_count: credits }).where('id', '=', userId).execute(),
  );
}

export async function creditsOf(dataDir: string, userId: number): Promise<number> {
  return withDatabase(
    dataDir,
    async (db) =>
      (await db.selectFrom('user').select('credit_count').where('id', '=', userId).executeTakeFirstOrThrow())
        .credit_count,
  );
}

/**
 * Puts documents into the backend's search index as the document module does after a
 * conversion (platform/search, collection 'document'), through a second connection to the
 * same database, on whichever engine the backend runs.
 */
export async function indexDocuments(
  dataDir: string,
  entries: {
    id: number;
    title: string;
    content: string;
    keywords?: string;
    description?: string;
    categoryIds?: number[];
    ext?: string;
    language?: string;
    userId?: number;
    createdAt?: string;
    viewCount?: number;
  }[],
): Promise<void> {
  await withSearchIndex(dataDir, 'document', (index) =>
    index.upsert(
      entries.map((e) => ({
        id: e.id,
        title: e.title,
        keywords: e.keywords ?? '',
        description: e.description ?? '',
        content: e.content,
        attributes: {
          categoryIds: e.categoryIds ?? [],
          ext: e.ext ?? '.pdf',
          language: e.language ?? '',
          userId: e.userId ?? 1,
          createdAt: e.createdAt ?? new Date().toISOString(),
          viewCount: e.viewCount ?? 0,
        },
      })),
    ),
  );
}

/** Queues a run of job `kind` now, as the backend's queue would (`payload` its JSON); returns the job's id. */
export async function queueJob(dataDir: string, kind: string, payload: unknown = {}): Promise<number> {
  return withDatabase(dataDir, async (db) => {
    const ts = new Date().toISOString();
    return (
      await db
        .insertInto('job')
        .values({
          kind,
          payload: JSON.stringify(payload),
          max_attempts: 1,
          run_after: ts,
          lease_owner: null,
          lease_expires_at: null,
          progress: null,
          dedupe_key: null,
          created_at: ts,
          updated_at: ts,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
}

/** The state of job `id` ('queued', 'running', 'done', …). */
export async function jobState(dataDir: string, id: number): Promise<string> {
  return withDatabase(
    dataDir,
    async (db) => (await db.selectFrom('job').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state,
  );
}

/** Queues a run of the `document.hot` ranking job now (its schedule is hourly) and waits until it has run. */
export async function runHotJob(dataDir: string): Promise<void> {
  const id = await queueJob(dataDir, 'document.hot');
  await expect.poll(() => jobState(dataDir, id), { timeout: 20_000 }).toBe('done');
}
