import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerMember, useBackend, withDatabase, withSearchIndex } from '../helpers/backend';
import { jobState, queueJob } from '../helpers/document-fixtures';

// A rebuild of a search index (the job queued at start when the index is empty, as with a
// database from MOREDOC) goes through every document in batches. On SQLite each query settles
// without I/O, so the event loop turned only when the whole rebuild was over: with 20,000
// documents the site opened its port, and answered anything, two minutes after its start. The
// backend runs in this process, so this file's own turns stand for the requests: while the job
// runs, a turn must come between two of its batches, when the index holds part of them, and
// a batch must be short: a request waits for one at each of its turns (100 entries held it
// about a second; with 10, a library page took 0.2–1.7 s during a rebuild of 20,000).

const DOCUMENTS = 250;
// JOB_POLL_MS: the queued job is taken within 0.1 s, not the default 1 s this file's loop spins through.
const backend = useBackend({ env: { JOB_POLL_MS: '100' } });

beforeAll(async () => {
  const author = await registerMember(backend.url);
  await withDatabase(backend.dataDir, async (db) => {
    const ts = new Date().toISOString();
    const ids = (
      await db
        .insertInto('document')
        .values(
          Array.from({ length: DOCUMENTS }, (_, i) => ({
            title: `重建文档${i}`,
            user_id: author.user.id,
            uuid: crypto.randomBytes(8).toString('hex'),
            ext: '.pdf',
            status: 2,
            pages: 1,
            hash: crypto.createHash('md5').update(`重建文档${i}`).digest('hex'),
            created_at: ts,
            updated_at: ts,
          })),
        )
        .returning('id')
        .execute()
    ).map((row) => row.id);
    await db
      .insertInto('document_content')
      .values(
        ids.map((id) => ({
          document_id: id,
          content: `第${id}号文档讲灯塔的潮汐。`,
          pages: 1,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
  });
});

describe('a rebuild of the document search index', () => {
  it('lets the event loop turn after every entry: the index is seen filling by at most one between two turns', async () => {
    const job = await queueJob(backend.dataDir, 'document.reindex', {});
    const seenWhileRunning: number[] = [];
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const state = await jobState(backend.dataDir, job);
      const indexed = await withSearchIndex(backend.dataDir, 'document', (index) => index.count());
      if (state === 'running') seenWhileRunning.push(indexed);
      if (state !== 'queued' && state !== 'running') {
        expect(state).toBe('done');
        expect(indexed).toBe(DOCUMENTS);
        break;
      }
    }
    const partly = seenWhileRunning.filter((count) => count > 0 && count < DOCUMENTS);
    expect(partly.length, seenWhileRunning.join(', ')).toBeGreaterThan(0);
    const steps = seenWhileRunning.slice(1).map((count, i) => count - seenWhileRunning[i]!);
    expect(Math.max(...steps), seenWhileRunning.join(', ')).toBeLessThanOrEqual(1);
  }, 60_000);
});
