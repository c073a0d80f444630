import { beforeAll, describe, expect, it } from 'vitest';
import { api, useBackend, type Member } from '../../helpers/backend';
import { createDocument, uploader } from '../../helpers/document-api';
import { recordedConversions } from '../../helpers/recorded-conversions';

// Writes that meet on one document: its conversion being recorded while its owner deletes it or
// an admin reviews it. On PostgreSQL these transactions run side by side; were one of them to
// lock the document before its owner and another the owner first, PostgreSQL would end one with
// a deadlock error (a 500 to the caller, the write lost). Here each runs a few times at once.

const backend = useBackend({ member: true, build: { converter: recordedConversions } });
let author: Member;
let reviewed: Member;

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  reviewed = await uploader(backend.url, backend.adminToken, { review: true });
});

/** A small text document, converted in a moment (recorded conversions); `text` makes its hash unique. */
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
