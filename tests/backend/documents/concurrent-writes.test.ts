import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConverterSettings, DocumentConverter } from '../../../backend/platform/convert/converter';
import { api, useBackend, type Member } from '../../helpers/backend';
import { createDocument, uploader } from '../../helpers/document-api';
import { recordedConversions } from '../../helpers/recorded-conversions';
import { lockWaiters } from '../../helpers/postgres';
import { databaseOf, TEST_ENGINE } from '../../helpers/test-database';

// Writes that meet on one document: its conversion being recorded while its owner deletes it or
// an admin reviews it. On PostgreSQL these transactions run side by side; were one of them to
// lock the document before its owner and another the owner first, PostgreSQL would end one with
// a deadlock error (a 500 to the caller, the write lost). Here each runs a few times at once;
// the two tests use the same texts, so that each file is a document of two members.

/** Conversions wait here while a test holds it shut; `reached` resolves when one gets here. */
const gate = { shut: Promise.resolve(), reached: (): void => undefined };

function gatedConversions(settings: ConverterSettings): DocumentConverter {
  const recorded = recordedConversions(settings);
  return {
    ...recorded,
    async convertDocument(request) {
      gate.reached();
      await gate.shut;
      return recorded.convertDocument(request);
    },
  };
}

const backend = useBackend({ member: true, build: { converter: gatedConversions } });
let author: Member;
let reviewed: Member;

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  reviewed = await uploader(backend.url, backend.adminToken, { review: true });
});

/** A small text document, converted in a moment (recorded conversions); one file per `text`. */
const textFile = (text: string) => Buffer.from(`${text}\n图书馆里的读者安静地读书。\n`, 'utf8');

/** `lanes` members of work at once, each `rounds` times in a row; answers every status code seen. */
async function atOnce(lanes: number, rounds: number, work: (name: string) => Promise<number[]>): Promise<number[]> {
  const codes = await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      const seen: number[] = [];
      for (let round = 0; round < rounds; round++) seen.push(...(await work(`并发${lane}-${round}`)));
      return seen;
    }),
  );
  return codes.flat();
}

// On SQLite one transaction runs at a time: there is no lock order to get wrong.
describe.runIf(TEST_ENGINE === 'postgres')('a file two members upload while its conversion is recorded', () => {
  it('the second upload waits for the next run, and the review of it meanwhile meets no deadlock', async () => {
    const first = await uploader(backend.url, backend.adminToken);
    const file = textFile('两位会员上传的同一份文件');
    let open!: () => void;
    gate.shut = new Promise((resolve) => (open = resolve));
    const reached = new Promise<void>((resolve) => (gate.reached = resolve));
    const ofFirst = await createDocument(backend.url, first.token, file, '同一份文件.txt');
    // The job has read the file's documents (the first member's alone) and converts.
    await reached;
    const url = databaseOf(backend.dataDir)!;
    const [held, review] = [new pg.Client(url), new pg.Client(url)];
    await Promise.all([held.connect(), review.connect()]);
    try {
      const lockUser = (client: pg.Client, id: number) =>
        client.query('SELECT id FROM "user" WHERE id = $1 FOR NO KEY UPDATE', [id]);
      const waitsForLock = async () => (await lockWaiters(review)) > 0;
      const firstConverted = async () =>
        (
          await review.query<{ status: number }>('SELECT status::int AS status FROM document WHERE id = $1', [
            ofFirst.id,
          ])
        ).rows[0]!.status === 2;
      // The conversion's transaction waits for the first member's row, held here…
      await held.query('BEGIN');
      await lockUser(held, first.user.id);
      open();
      await vi.waitFor(async () => expect(await waitsForLock()).toBe(true), { timeout: 10_000, interval: 20 });
      // …while the second member makes a document of the same file, and a review of it begins.
      const ofSecond = await createDocument(backend.url, reviewed.token, file, '同一份文件.txt');
      expect(ofSecond.status).toBe(6);
      await review.query('BEGIN');
      await lockUser(review, reviewed.user.id);
      await held.query('COMMIT');
      // The conversion records the first member's document; had it taken the second's too, it
      // would now wait for that member's row, held by the review.
      await vi.waitFor(
        async () => {
          expect((await firstConverted()) || (await waitsForLock())).toBe(true);
        },
        { timeout: 10_000, interval: 20 },
      );
      // the review's write of the document (its status and time, here left as they are)
      await review.query('UPDATE document SET status = status, updated_at = updated_at WHERE id = $1', [ofSecond.id]);
      await review.query('COMMIT');
      // Converted, or a deadlock ended the conversion's transaction: the job records its error.
      const failedAttempts = async () =>
        (
          await review.query<{ last_error: string }>(
            `SELECT last_error FROM job WHERE dedupe_key = $1 AND coalesce(last_error, '') <> ''`,
            [`document.convert:${ofFirst.hash}`],
          )
        ).rows.map((job) => job.last_error);
      await vi.waitFor(
        async () => {
          expect((await firstConverted()) || (await failedAttempts()).length > 0).toBe(true);
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(await failedAttempts()).toEqual([]);
      // The job's next run records the pages on the second document, its review status kept.
      await vi.waitFor(
        async () => {
          const seen = await api(backend.url, 'GET', '/api/v1/document', {
            token: reviewed.token,
            query: { id: ofSecond.id },
          });
          expect([seen.body.status, seen.body.pages > 0]).toEqual([6, true]);
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(await failedAttempts()).toEqual([]);
    } finally {
      open();
      await Promise.all([held.end(), review.end()]);
    }
  });
});

describe('a document written by its conversion and by people at once', () => {
  it('its owner deletes it while its conversion is recorded: every delete succeeds', async () => {
    const codes = await atOnce(6, 8, async (name) => {
      const doc = await createDocument(backend.url, author.token, textFile(name), `${name}.txt`);
      const deleted = await api(backend.url, 'DELETE', '/api/v1/document', {
        token: author.token,
        query: { id: [doc.id] },
      });
      return [deleted.status];
    });
    expect(codes.filter((code) => code !== 200)).toEqual([]);
    const recycle = await backend.admin('GET', '/api/v1/document/recycle', { query: { page: 1, size: 100 } });
    expect(recycle.body.total).toBe(48);
  });

  it('an admin reviews it while its conversion for the reviewer is recorded: every review sticks', async () => {
    const results = await atOnce(6, 8, async (name) => {
      const doc = await createDocument(backend.url, reviewed.token, textFile(name), `${name}.txt`);
      const codes: number[] = [];
      for (const status of [7, 4]) {
        codes.push((await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status } })).status);
        const seen = await api(backend.url, 'GET', '/api/v1/document', {
          token: reviewed.token,
          query: { id: doc.id },
        });
        // the status read back: 1000 + status, so that it cannot pass for a status code
        codes.push(1000 + seen.body.status);
      }
      return codes;
    });
    expect(results.filter((code) => code !== 200 && code !== 1007 && code !== 1004)).toEqual([]);
    expect(results.filter((code) => code === 1007)).toHaveLength(48);
    expect(results.filter((code) => code === 1004)).toHaveLength(48);
  });
});
