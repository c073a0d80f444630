import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PagePositions } from '../../../backend/platform/convert/converter';
import { api, login, registerMember, startBackend, useBackend, withDatabase, type Member } from '../../helpers/backend';
import { createDocument, uploader, waitForStatus, type CreatedDocument } from '../../helpers/document-api';
import { formBombPdf, linesPdf } from '../../helpers/documents';

// The text of a document's pages inside the reader. Where the characters of a page are
// (`/view/page/<hash>/<n>.json`): kept by the conversion for every page, served under the page
// image's decision (never past what the viewer may read); documents converted before they were
// kept get them from a job after the next start. Find in the document (FindInDocument): the
// lines holding the words, by page, only of the pages the caller may read.

const backend = useBackend();
const SECRET = 'Quokkazanzibar';
let author: Member;
let stranger: Member;
let doc: CreatedDocument;

async function get(path: string, token?: string, headers: Record<string, string> = {}, base = backend.url) {
  const res = await request(`${base}${path}`, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

const positionsPath = (n: number) => `/view/page/${doc.hash}/${n}.json`;

/** Each character's box on the page, in points, as a reader draws it. */
function charBoxes(positions: PagePositions) {
  return positions.l.flatMap(([x0, y0, x1, y1, text, steps]) => {
    let at = x0;
    const starts = steps.map((step) => (at += step));
    return [...text].map((c, i) => ({
      c,
      x0: starts[i]! / 10,
      x1: (starts[i + 1] ?? x1) / 10,
      y0: y0 / 10,
      y1: y1 / 10,
    }));
  });
}

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  stranger = await registerMember(backend.url);
  await backend.setConfig({ 'converter.max_preview': '2' });
  doc = await createDocument(
    backend.url,
    author.token,
    linesPdf([
      ['Lighthouse notes', 'Second line here'],
      ['Chapter 2', 'The LIGHTHOUSE keeper, the lighthouse cat'],
      [`The secret word is ${SECRET}.`, 'Lighthouse at the end'],
    ]),
    'positions.pdf',
    { price: 3 },
  );
  await waitForStatus(backend.url, author.token, doc.id, [2]);
});

describe("the positions of a page's characters", () => {
  it("are kept for every page and served as gzip JSON with the page's caching", async () => {
    const res = await get(positionsPath(1), undefined, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    const positions = JSON.parse(gunzipSync(res.body).toString('utf8')) as PagePositions;
    expect(positions).toMatchObject({ v: 1, w: 595, h: 842 });
    expect(positions.l.map((line) => line[4])).toEqual(['Lighthouse notes', 'Second line here']);
    const boxes = charBoxes(positions);
    // linesPdf writes 12 pt Times from x = 72, the first line's baseline at 842 − 760 = 82 pt from the top.
    expect(boxes[0]).toMatchObject({ c: 'L' });
    expect(boxes[0]!.x0).toBeCloseTo(72, 0);
    expect(boxes[0]!.y0).toBeLessThan(82);
    expect(boxes[0]!.y1).toBeGreaterThan(82);
    for (const [a, b] of boxes.slice(0, 16).map((box, i, all) => [box, all[i + 1]] as const))
      if (b) expect(b.x0).toBeCloseTo(a.x1, 1);
    expect(boxes[15]!.x1).toBeGreaterThan(boxes[15]!.x0);
  });

  it('are inflated for a client that does not take gzip', async () => {
    const res = await get(positionsPath(2));
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(res.body.toString('utf8')) as PagePositions).l[0]![4]).toBe('Chapter 2');
  });

  it('are refused past the preview to whoever may not read the page, and served to the owner', async () => {
    for (const token of [undefined, stranger.token]) {
      const res = await get(positionsPath(3), token);
      expect(res.status).toBe(403);
      expect(res.body.toString('utf8')).not.toContain(SECRET);
    }
    const owner = await get(positionsPath(3), author.token);
    expect(owner.status).toBe(200);
    expect(owner.headers['cache-control']).toBe('private, max-age=3600');
    expect(owner.body.toString('utf8')).toContain(SECRET);
    expect((await get(positionsPath(4), author.token)).status).toBe(404);
  });
});

const hashFolder = (dataDir: string, hash: string) =>
  path.join(dataDir, 'documents', ...hash.slice(0, 5).split(''), hash);

/**
 * Makes the conversions of `hashes` look as a conversion from before the positions were kept left them: no
 * positions, no mention of them in the manifest, no sweep done.
 */
function convertedBeforePositions(dataDir: string, ...hashes: string[]): void {
  for (const hash of hashes) {
    const folder = hashFolder(dataDir, hash);
    for (const file of fs.readdirSync(folder)) if (file.endsWith('.pos.gz')) fs.rmSync(path.join(folder, file));
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    delete manifest.positions;
    fs.writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
  }
  fs.rmSync(path.join(dataDir, 'documents', 'positions-backfill.json'), { force: true });
}

describe('find in the document', () => {
  const find = (wd: string, token?: string, id = doc.id) =>
    api(backend.url, 'GET', '/api/v1/document/find', { token, query: { id, wd } });

  it('lists the lines holding the words by page, case folded, with where they are in the line', async () => {
    const res = await find('  lighthouse ');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hit: [
        { page: 1, text: 'Lighthouse notes', length: 10 },
        { page: 2, text: 'The LIGHTHOUSE keeper, the lighthouse cat', start: 4, length: 10 },
        { page: 2, text: 'The LIGHTHOUSE keeper, the lighthouse cat', start: 27, length: 10 },
      ],
      total: 3,
      readable: 2,
    });
  });

  it('never looks past the pages the caller may read: the owner finds the secret, a visitor or a stranger nothing', async () => {
    for (const token of [undefined, stranger.token]) {
      const res = await find(SECRET.toLowerCase(), token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ readable: 2 });
      expect(res.text).not.toContain(SECRET);
    }
    expect((await find('lighthouse at', stranger.token)).body).toEqual({ readable: 2 });
    const owner = await find(SECRET, author.token);
    expect(owner.body).toEqual({
      hit: [{ page: 3, text: `The secret word is ${SECRET}.`, start: 19, length: SECRET.length }],
      total: 1,
      readable: 3,
    });
  });

  it('answers 404 for an unknown document, and nothing for empty words', async () => {
    expect((await find('lighthouse', undefined, 999_999)).status).toBe(404);
    expect((await find('   ')).body).toEqual({ readable: 2 });
  });
});

describe('where a member last read', () => {
  const reading = (token: string | undefined, id = doc.id) =>
    api(backend.url, 'GET', '/api/v1/document/reading', { token, query: { document_id: id } });
  const keep = (token: string | undefined, page: number, id = doc.id) =>
    api(backend.url, 'PUT', '/api/v1/document/reading', { token, body: { document_id: id, page } });

  it('is kept per member and document, the page within the document', async () => {
    const reader = await registerMember(backend.url);
    expect((await reading(reader.token)).body).toEqual({});
    expect((await keep(reader.token, 2)).body).toEqual({ document_id: doc.id, page: 2 });
    const kept = await reading(reader.token);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ document_id: doc.id, page: 2 });
    expect(Date.parse(kept.body.updated_at)).not.toBeNaN();
    expect((await keep(reader.token, 99)).body).toEqual({ document_id: doc.id, page: 3 });
    expect((await reading(reader.token)).body).toMatchObject({ page: 3 });
    expect((await reading(stranger.token)).body).toEqual({});
  });

  it('is for members only, of documents they may see', async () => {
    expect((await reading(undefined)).status).toBe(401);
    expect((await keep(undefined, 2)).status).toBe(401);
    expect((await keep(stranger.token, 2, 999_999)).status).toBe(404);
  });
});

describe('documents converted before the positions were kept', () => {
  it('get them after the next start, from the upload, whatever its format', async () => {
    const first = await startBackend();
    const dataDir = first.dataDir;
    let second: Awaited<ReturnType<typeof startBackend>> | undefined;
    try {
      const admin = await login(first.url, 'admin', first.adminPassword);
      const member = await uploader(first.url, admin);
      const pdf = await createDocument(
        first.url,
        member.token,
        linesPdf([['Old conversion'], ['Page two words']]),
        'old.pdf',
      );
      const txt = await createDocument(first.url, member.token, Buffer.from('旧的文本文档\n第二行文字\n'), 'old.txt');
      for (const d of [pdf, txt]) await waitForStatus(first.url, member.token, d.id, [2]);
      await first.close({ keepData: true });

      // What a conversion made before this change left: no positions, no mention of them, no sweep.
      convertedBeforePositions(dataDir, pdf.hash, txt.hash);

      second = await startBackend({ dataDir });
      expect((await get(`/view/page/${pdf.hash}/2.json`, undefined, {}, second.url)).status).toBe(404);
      const filled = (hash: string) =>
        (
          JSON.parse(fs.readFileSync(path.join(hashFolder(dataDir, hash), 'manifest.json'), 'utf8')) as {
            positions?: number;
          }
        ).positions === 1;
      for (let waited = 0; !(filled(pdf.hash) && filled(txt.hash)); waited += 100) {
        if (waited > 60_000) throw new Error('the positions were not filled in');
        await sleep(100);
      }
      const pdfPage = await get(`/view/page/${pdf.hash}/2.json`, undefined, {}, second.url);
      expect(pdfPage.status).toBe(200);
      expect((JSON.parse(pdfPage.body.toString('utf8')) as PagePositions).l.map((line) => line[4])).toEqual([
        'Page two words',
      ]);
      const txtPage = await get(`/view/page/${txt.hash}/1.json`, undefined, {}, second.url);
      expect((JSON.parse(txtPage.body.toString('utf8')) as PagePositions).l.map((line) => line[4])).toEqual([
        '旧的文本文档',
        '第二行文字',
      ]);
      expect(fs.existsSync(path.join(dataDir, 'documents', 'positions-backfill.json'))).toBe(true);
    } finally {
      await second?.close();
      if (!second) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a page that takes too long gives up its thread after CONVERT_PAGE_TIMEOUT_MS, its job failed', async () => {
    const first = await startBackend();
    const dataDir = first.dataDir;
    let second: Awaited<ReturnType<typeof startBackend>> | undefined;
    try {
      const admin = await login(first.url, 'admin', first.adminPassword);
      const member = await uploader(first.url, admin);
      const pdf = await createDocument(first.url, member.token, linesPdf([['Old conversion']]), 'old.pdf');
      await waitForStatus(first.url, member.token, pdf.id, [2]);
      await first.close({ keepData: true });

      // Converted before the positions were kept, from an upload that is now a page MuPDF reads
      // for ever (10^8 letters in nested forms): the positions job gets it.
      convertedBeforePositions(dataDir, pdf.hash);
      const upload = await withDatabase(dataDir, (db) =>
        db.selectFrom('attachment').select('path').where('hash', '=', pdf.hash).executeTakeFirstOrThrow(),
      );
      fs.writeFileSync(path.join(dataDir, upload.path.replace(/^\/+/, '')), formBombPdf());

      second = await startBackend({ dataDir, env: { CONVERT_PAGE_TIMEOUT_MS: '1000' } });
      const failure = () =>
        withDatabase(dataDir, (db) =>
          db
            .selectFrom('job')
            .select('last_error')
            .where('dedupe_key', '=', `document.positions:${pdf.hash}`)
            .where('state', '=', 'failed')
            .executeTakeFirst(),
        );
      // The default budget (60 s) would keep the thread far longer than this wait.
      let failed = await failure();
      for (let waited = 0; !failed; waited += 100) {
        if (waited > 30_000) throw new Error('the positions job did not fail');
        await sleep(100);
        failed = await failure();
      }
      expect(failed.last_error).toContain('page-too-complex: page 1 took more than 1000 ms');
    } finally {
      await second?.close();
      if (!second) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
