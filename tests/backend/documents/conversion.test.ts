import { once } from 'node:events';
import fs from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { request } from 'undici';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BlobStore, PutOptions, PutResult } from '../../../backend/platform/blobs/blob-store';
import {
  createDocumentConverter,
  PAGE_BREAK,
  type ConversionProgress,
  type ConversionRequest,
  type ConverterSettings,
  type DocumentConverter,
} from '../../../backend/platform/convert/converter';
import { detectConverters } from '../../../backend/platform/convert/detect';
import { descriptionFrom } from '../../../backend/modules/document/page-text';
import { SqliteSearchIndex } from '../../../backend/platform/search/sqlite-search-index';
import { api, login, registerMember, startBackend, useBackend, withDatabase, type Member } from '../../helpers/backend';
import { partsMissing } from '../../helpers/converters-installed';
import { createDocument, uploadDocument, uploader, waitForStatus } from '../../helpers/document-api';
import {
  brokenPdf,
  calibreEpub,
  convertedFiles,
  encryptedPdf,
  fixture,
  linesPdf,
  scannedPdf,
  textPdf,
} from '../../helpers/documents';
import { isImageThread, threadStates } from '../../helpers/threads';
import { deflated, zip } from '../../helpers/zip';
import { BODY_WORD } from '../../fixtures/documents/generate';

// Conversion through the API: upload → create → the job → pages, covers, text and the search
// index; same-file reuse, reconversion, progress, the site answering meanwhile, and every bad
// input ending in status 3 with its reason while the converter goes on.

const backend = useBackend();
/** Why a test of LibreOffice or calibre cannot run here, undefined when it can. */
const converters = await detectConverters();
const missing = partsMissing(converters);
let author: Member;

const hashFolder = (dataDir: string, hash: string) =>
  path.join(dataDir, 'documents', ...hash.slice(0, 5).split(''), hash);

/** A page as the reader's browser gets it, without decompressing (undici's request leaves the body alone). */
async function page(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** The SVG of a page, parsed and rendered by librsvg (through sharp): its size in pixels. */
async function svgSize(svg: Buffer): Promise<{ width?: number; height?: number; format?: string }> {
  expect(svg.subarray(0, 200).toString('utf8')).toContain('<svg');
  return sharp(svg).metadata();
}

/** The states of the conversion jobs of the file `hash`, oldest first. */
async function jobStates(hash: string): Promise<string[]> {
  const rows = await withDatabase(backend.dataDir, (db) =>
    db
      .selectFrom('job')
      .select('state')
      .where('kind', '=', 'document.convert')
      .where('dedupe_key', '=', `document.convert:${hash}`)
      .orderBy('id')
      .execute(),
  );
  return rows.map((row) => row.state);
}

/**
 * Waits until the `runs` conversion jobs of the file `hash` are done. The job files the document in the search index,
 * and records its own end, after the status it wrote committed, which waitForStatus can see first; a reconversion
 * asked for in between would be one more run of that job (again), not a job of its own.
 */
async function jobsDone(hash: string, runs: number): Promise<void> {
  const done = Array.from({ length: runs }, () => 'done');
  await vi.waitFor(async () => expect(await jobStates(hash)).toEqual(done), { timeout: 15_000, interval: 50 });
}

/**
 * The real converter (a backend's `build.converter`), its conversions made by `convert`, which
 * calls the real one (`engine`) and holds what the test needs held.
 */
function convertingThrough(
  convert: (request: ConversionRequest, engine: DocumentConverter) => ReturnType<DocumentConverter['convertDocument']>,
): (settings: ConverterSettings) => DocumentConverter {
  return (settings) => {
    const engine = createDocumentConverter(settings);
    return {
      convertDocument: (request) => convert(request, engine),
      pageAtReadingResolution: (...args) => engine.pageAtReadingResolution(...args),
      extractPositions: (request) => engine.extractPositions(request),
      detectConverters: () => engine.detectConverters(),
      close: () => engine.close(),
    };
  };
}

async function jobRuns(hash: string, dataDir = backend.dataDir): Promise<number> {
  const row = await withDatabase(dataDir, (db) =>
    db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'document.convert')
      .where('dedupe_key', '=', `document.convert:${hash}`)
      .executeTakeFirstOrThrow(),
  );
  return row.n;
}

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
});

describe('a PDF, upload to pages', () => {
  let doc: Awaited<ReturnType<typeof createDocument>>;
  beforeAll(async () => {
    doc = await createDocument(backend.url, author.token, fs.readFileSync(fixture('chinese.pdf')), '城市图书馆.pdf');
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    await jobsDone(doc.hash, 1);
  });

  it('records the page count, the preview, the page size and the page format', async () => {
    const got = (await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body;
    expect(got).toMatchObject({
      status: 2,
      pages: 3,
      preview: 3,
      width: 595,
      height: 842,
      enable_gzip: true,
      preview_ext: '.svg',
    });
    expect(got.convert_error).toBeUndefined();
  });

  it('serves every page as an SVG that parses, and no page past the last', async () => {
    for (const n of [1, 2, 3]) {
      const res = await page(`${backend.url}/view/page/${doc.hash}/${n}.gzip.svg`, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(await svgSize(gunzipSync(res.body))).toMatchObject({ format: 'svg', width: 595, height: 842 });
    }
    expect(
      (await page(`${backend.url}/view/page/${doc.hash}/4.svg`, { authorization: `Bearer ${author.token}` })).status,
    ).toBe(404);
  });

  it('serves the covers', async () => {
    const cover = await page(`${backend.url}/view/cover/${doc.hash}`);
    expect(cover.headers['content-type']).toBe('image/png');
    expect(await sharp(cover.body).metadata()).toMatchObject({ format: 'png', width: 210, height: 297 });
    const big = await page(`${backend.url}/view/page/${doc.hash}/cover.big.png`);
    expect(await sharp(big.body).metadata()).toMatchObject({ format: 'png', width: 596, height: 842 }); // the page at 72 dpi (595.3 points)
  });

  it('keeps the text (with a word only page 2 holds) and indexes it for search', async () => {
    const got = await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id, with_all_content: true } });
    expect(got.body.content).toContain(BODY_WORD);
    const sqlite = new SQLite(path.join(backend.dataDir, 'moredoc.db'));
    try {
      const found = await new SqliteSearchIndex(sqlite, 'document').search({ text: BODY_WORD });
      expect(found.hits.map((h) => h.id)).toContain(doc.id);
      expect(found.hits.find((h) => h.id === doc.id)!.snippet).toContain(`<em>${BODY_WORD}</em>`);
    } finally {
      sqlite.close();
    }
  });

  it("keeps a manifest, the text, the characters' positions and the covers in the document's folder", () => {
    const files = fs.readdirSync(hashFolder(backend.dataDir, doc.hash)).sort();
    expect(files).toEqual([...convertedFiles(3), 'manifest.json', 'text.txt']);
  });

  it('reuses the conversion for another upload of the same file, and converts again on request', async () => {
    const other = await uploader(backend.url, backend.adminToken);
    const pageFile = path.join(hashFolder(backend.dataDir, doc.hash), '1.gzip.svg');
    const before = fs.statSync(pageFile).mtimeMs;
    const twin = await createDocument(
      backend.url,
      other.token,
      fs.readFileSync(fixture('chinese.pdf')),
      '同一个文件.pdf',
    );
    expect(twin.hash).toBe(doc.hash);
    expect(await waitForStatus(backend.url, other.token, twin.id, [2])).toMatchObject({
      pages: 3,
      preview_ext: '.svg',
    });
    expect(fs.statSync(pageFile).mtimeMs).toBe(before);
    await jobsDone(doc.hash, 2);

    expect((await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [twin.id] } })).status).toBe(200);
    await waitForStatus(backend.url, other.token, twin.id, [2]);
    expect(fs.statSync(pageFile).mtimeMs).toBeGreaterThan(before);
    expect(await jobRuns(doc.hash)).toBe(3);
  });
});

describe('a reconversion of documents converted when their first page read "[image]"', () => {
  it('makes a description made from the text again from the new text; one a person wrote stays', async () => {
    const file = fs.readFileSync(fixture('chinese.epub'));
    const made = await createDocument(backend.url, author.token, file, '简介来自正文.epub');
    const other = await uploader(backend.url, backend.adminToken);
    const written = await createDocument(backend.url, other.token, file, '作者写的简介.epub', {
      description: '作者写的简介',
    });
    const fresh = await waitForStatus(backend.url, author.token, made.id, [2]);
    await waitForStatus(backend.url, other.token, written.id, [2]);
    // What a conversion before EPUB covers were drawn left: a first page of "[image]", the description made from it.
    const old = await withDatabase(backend.dataDir, async (db) => {
      const row = await db
        .selectFrom('document_content')
        .select(['content', 'pages'])
        .where('document_id', '=', made.id)
        .executeTakeFirstOrThrow();
      const text = { content: `[image]${PAGE_BREAK}${row.content}`, pages: row.pages + 1 };
      const description = descriptionFrom(text, fresh.preview, fresh.pages + 1);
      await db.updateTable('document_content').set(text).where('document_id', 'in', [made.id, written.id]).execute();
      await db
        .updateTable('document')
        .set({ pages: fresh.pages + 1 })
        .where('id', 'in', [made.id, written.id])
        .execute();
      await db.updateTable('document').set({ description }).where('id', '=', made.id).execute();
      return description;
    });
    expect(old).toMatch(/^\[image\] /);

    const reconvert = await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [made.id, written.id] } });
    expect(reconvert.status).toBe(200);
    const [again, kept] = [
      await waitForStatus(backend.url, author.token, made.id, [2]),
      await waitForStatus(backend.url, other.token, written.id, [2]),
    ];
    expect(again.description).toBe(fresh.description);
    expect(again.description).not.toContain('[image]');
    expect(kept.description).toBe('作者写的简介');
  });
});

describe('a file uploaded again under an extension its content does not bear out', () => {
  it('is refused at upload, though the file was converted as a PDF; the PDF keeps its pages', async () => {
    const file = linesPdf([['Converted as a PDF, then renamed .epub'], ['Second page']]);
    const pdf = await createDocument(backend.url, author.token, file, '先作为 PDF.pdf');
    await waitForStatus(backend.url, author.token, pdf.id, [2]);

    const other = await uploader(backend.url, backend.adminToken);
    expect(await uploadDocument(backend.url, other.token, file, '改名为 EPUB.epub')).toMatchObject({
      status: 400,
      body: { message: '文件内容与扩展名 .epub 不符，请确认文件的格式后重新上传' },
    });
    expect(await waitForStatus(backend.url, author.token, pdf.id, [2])).toMatchObject({ pages: 2 });
  });
});

describe('the same bytes as .txt and as .csv', () => {
  const calc = missing('calc', 'noto-cjk');

  it.skipIf(calc !== undefined)(
    `convert apart, plain text and a table, while each extension again reuses its own conversion${calc ? ` — ${calc}` : ''}`,
    async () => {
      const file = Buffer.from('水果,数量\n苹果,3\n香蕉,5\n');
      const txt = await createDocument(backend.url, author.token, file, '水果清单.txt');
      const asText = await waitForStatus(backend.url, author.token, txt.id, [2, 3]);
      const other = await uploader(backend.url, backend.adminToken);
      const csv = await createDocument(backend.url, other.token, file, '水果清单.csv');
      const asTable = await waitForStatus(backend.url, other.token, csv.id, [2, 3]);

      // With the reason, should one fail (it did once, in a whole-file run, for a reason not kept).
      expect([asText, asTable].map((doc) => [doc.status, doc.convert_error])).toEqual([
        [2, undefined],
        [2, undefined],
      ]);
      // MuPDF lays the text out as it is; LibreOffice puts each value in a cell of its own
      expect(asText.content).toContain('苹果,3');
      expect(asTable.content).toContain('苹果');
      expect(asTable.content).not.toContain(',');
      expect(csv.hash).not.toBe(txt.hash);
      const manifest = (hash: string) =>
        JSON.parse(fs.readFileSync(path.join(hashFolder(backend.dataDir, hash), 'manifest.json'), 'utf8')) as {
          converter: string;
          convertedAt: string;
        };
      expect([manifest(txt.hash).converter, manifest(csv.hash).converter]).toEqual(['mupdf', 'libreoffice']);
      const pageOf = async (hash: string) => (await page(`${backend.url}/view/page/${hash}/1.svg`)).body;
      expect((await pageOf(csv.hash)).equals(await pageOf(txt.hash))).toBe(false);

      // the .csv's original is the uploaded file, though its hash is not the file's MD5
      const link = await api(backend.url, 'GET', '/api/v1/document/download', {
        token: other.token,
        query: { id: csv.id },
      });
      expect(link.status).toBe(200);
      expect(Buffer.from(await (await fetch(backend.url + link.body.url)).arrayBuffer())).toEqual(file);

      const convertedAt = [manifest(txt.hash).convertedAt, manifest(csv.hash).convertedAt];
      const third = await uploader(backend.url, backend.adminToken);
      const csvAgain = await createDocument(backend.url, third.token, file, '又一份清单.csv');
      const txtAgain = await createDocument(backend.url, third.token, file, '又一份清单.txt');
      expect([csvAgain.hash, txtAgain.hash]).toEqual([csv.hash, txt.hash]);
      expect(await waitForStatus(backend.url, third.token, csvAgain.id, [2, 3])).toMatchObject({
        status: 2,
        content: asTable.content,
      });
      expect(await waitForStatus(backend.url, third.token, txtAgain.id, [2, 3])).toMatchObject({
        status: 2,
        content: asText.content,
      });
      // each rendering converted once: the second upload of each took the pages there
      expect([manifest(txt.hash).convertedAt, manifest(csv.hash).convertedAt]).toEqual(convertedAt);
    },
    // a LibreOffice start and four conversions: past the project's 30 s at a load of 18
    120_000,
  );
});

describe("a conversion kept from before the pages' texts were kept apart", () => {
  it('is done again for another upload of the file, whose text is then kept page by page', async () => {
    const file = textPdf(6);
    const first = await createDocument(backend.url, author.token, file, '旧的转换.pdf');
    await waitForStatus(backend.url, author.token, first.id, [2]);
    // What an install before then left: a manifest without `textPages`, the pages' texts run together.
    const folder = hashFolder(backend.dataDir, first.hash);
    const manifestFile = path.join(folder, 'manifest.json');
    const { textPages: _textPages, ...older } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<
      string,
      unknown
    >;
    fs.writeFileSync(manifestFile, JSON.stringify(older));
    fs.writeFileSync(path.join(folder, 'text.txt'), 'Page 1 of 6\n\nPage 2 of 6');
    const pageFile = path.join(folder, '1.gzip.svg');
    const before = fs.statSync(pageFile).mtimeMs;

    const other = await uploader(backend.url, backend.adminToken);
    const twin = await createDocument(backend.url, other.token, file, '同一个旧文件.pdf');
    await waitForStatus(backend.url, other.token, twin.id, [2]);
    expect(fs.statSync(pageFile).mtimeMs).toBeGreaterThan(before);
    expect(JSON.parse(fs.readFileSync(manifestFile, 'utf8'))).toMatchObject({ pages: 6, textPages: 6 });
    const stored = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('document_content')
        .select(['content', 'pages'])
        .where('document_id', '=', twin.id)
        .executeTakeFirstOrThrow(),
    );
    expect(stored.pages).toBe(6);
    expect(stored.content.split('\f').map((page) => page.split('\n')[0])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `Page ${n} of 6`),
    );
  }, 60_000);
});

describe('a reconversion asked for while the file converts', () => {
  it('is not lost: the job converts the file again once it is done, and the document ends converted', async () => {
    // Each conversion's end is held until the test has seen the status it is to see meanwhile:
    // 重新转换 (5) while the first ends, converting (1) while the second does. Else a fast
    // machine could convert the file between two polls.
    let sawReconvert!: () => void;
    let sawConvertingAgain!: () => void;
    const holds = [
      new Promise<void>((resolve) => (sawReconvert = resolve)),
      new Promise<void>((resolve) => (sawConvertingAgain = resolve)),
    ];
    let conversions = 0;
    const holdEnds = convertingThrough(async (request, engine) => {
      const hold = holds[conversions++];
      const result = await engine.convertDocument(request);
      await hold;
      return result;
    });
    const own = await startBackend({ build: { converter: holdEnds } });
    try {
      const adminToken = await login(own.url, 'admin', own.adminPassword);
      const owner = await uploader(own.url, adminToken);
      const doc = await createDocument(own.url, owner.token, textPdf(20), '转换中重新转换.pdf');
      const status = async () =>
        (await api(own.url, 'GET', '/api/v1/document', { token: owner.token, query: { id: doc.id } })).body;
      // converting, pages under way
      for (;;) {
        const body = await status();
        expect(body.status).not.toBe(2);
        if (body.status === 1 && (body.convert_progress?.done ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(
        (await api(own.url, 'PUT', '/api/v1/document/reconvert', { token: adminToken, body: { id: [doc.id] } })).status,
      ).toBe(200);
      // 重新转换 (5) while the first conversion ends, then converting again (1), then converted
      const seen: number[] = [];
      for (;;) {
        const body = await status();
        if (seen[seen.length - 1] !== body.status) seen.push(body.status);
        if (body.status === 5) sawReconvert();
        if (body.status === 1 && seen.includes(5)) sawConvertingAgain();
        if (body.status === 2 || body.status === 3) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toEqual([5, 1, 2]);
      expect(await jobRuns(doc.hash, own.dataDir)).toBe(1);
    } finally {
      sawReconvert();
      sawConvertingAgain();
      await own.close();
    }
  }, 120_000);
});

describe('a shutdown while the pages are being stored', () => {
  it('stops storing at the abort: the job is queued again at once, its attempt not counted, and converts at the next start', async () => {
    // The store holds the write of the third page (streamed from the conversion's folder) until
    // that stream is ended; it then answers as if the write had finished just as the abort came.
    let writes = 0;
    let storing!: () => void;
    const reached = new Promise<void>((resolve) => (storing = resolve));
    const holdThirdPage = (store: BlobStore): BlobStore =>
      new Proxy(store, {
        get(target, name) {
          if (name !== 'put') {
            const value: unknown = Reflect.get(target, name);
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          }
          return async (key: string, source: Readable | Buffer, opts?: PutOptions): Promise<PutResult> => {
            if (!key.startsWith('documents/') || Buffer.isBuffer(source) || ++writes !== 3)
              return target.put(key, source, opts);
            storing();
            await once(source, 'close');
            return { size: 0, md5: '' };
          };
        },
      });
    // The queue's grace for running jobs at a close, shortened (5 s by default): the held write never ends on its own.
    const first = await startBackend({ build: { blobStore: holdThirdPage, jobStopGraceMs: 200 } });
    const member = await uploader(first.url, await login(first.url, 'admin', first.adminPassword));
    const doc = await createDocument(first.url, member.token, textPdf(6), '存储中停止.pdf');
    await reached;
    // The queue's grace, its abort, then a second for the handler to return.
    await first.close({ keepData: true });
    const job = await withDatabase(first.dataDir, (db) =>
      db
        .selectFrom('job')
        .select(['state', 'attempts', 'lease_owner'])
        .where('dedupe_key', '=', `document.convert:${doc.hash}`)
        .executeTakeFirstOrThrow(),
    );
    expect(job).toEqual({ state: 'queued', attempts: 0, lease_owner: null });
    expect(fs.existsSync(path.join(hashFolder(first.dataDir, doc.hash), 'manifest.json'))).toBe(false);

    const second = await startBackend({ dataDir: first.dataDir });
    try {
      expect(await waitForStatus(second.url, member.token, doc.id, [2, 3])).toMatchObject({ status: 2, pages: 6 });
    } finally {
      await second.close();
    }
  }, 120_000);
});

describe('other formats', () => {
  it.each([
    ['chinese.epub', '.epub'],
    ['chinese.txt', '.txt'],
    ['chinese.mobi', '.mobi'],
  ])('%s converts with MuPDF', async (name) => {
    const doc = await createDocument(backend.url, author.token, fs.readFileSync(fixture(name)), name);
    const done = await waitForStatus(backend.url, author.token, doc.id, [2, 3]);
    expect(done.convert_error).toBeUndefined();
    expect(done.pages).toBeGreaterThan(0);
    expect(done.content).toContain('图书馆');
  });

  const calibre = missing('calibre');
  it.skipIf(calibre !== undefined)(
    `an EPUB calibre made: its description is the book's first words, not its cover page's${calibre ? ` — ${calibre}` : ''}`,
    async () => {
      // calibre's cover page (an inline <svg> of the cover image) was laid out by MuPDF as the text "[image]".
      const epub = await calibreEpub(converters.calibre!.path, 'red');
      const doc = await createDocument(backend.url, author.token, epub, '城市图书馆.epub');
      const done = await waitForStatus(backend.url, author.token, doc.id, [2, 3]);
      expect(done.status).toBe(2);
      expect(done.description).toMatch(/^第一章 ?开端/);
    },
  );

  it('renders a 200 dpi scan as WebP (once the page images job has run: page-images.test.ts) and serves it whatever extension is asked for', async () => {
    const doc = await createDocument(backend.url, author.token, await scannedPdf(2, 200), '扫描件.pdf');
    const done = await waitForStatus(backend.url, author.token, doc.id, [2]);
    expect(done).toMatchObject({ pages: 2, preview_ext: '.webp' });
    expect(done.enable_gzip).toBeUndefined();
    const stored = () =>
      fs
        .readdirSync(hashFolder(backend.dataDir, doc.hash))
        .filter((f) => /^\d+\.(?!pos\.gz$)/.test(f))
        .sort();
    for (let waited = 0; stored().join() !== '1.webp,2.webp'; waited += 100) {
      if (waited > 30_000) throw new Error(`pages stored: ${stored().join()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const asked of ['/1.svg', '/2.gzip.svg']) {
      const res = await page(`${backend.url}/view/page/${doc.hash}${asked}`, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      // A4 at 150 dpi
      expect(await sharp(res.body).metadata()).toMatchObject({ format: 'webp', width: 1240, height: 1754 });
    }
  }, 60_000);
});

describe('LibreOffice installed while the site runs', () => {
  // Also the site's Office path whole: a Word file uploaded converts through LibreOffice and the PDF it made is
  // kept. LibreOffice's and calibre's own outputs (a Kindle book's too) are tests/backend/convert/external.test.ts's;
  // which converter an extension goes to, formats.test.ts's.
  const office = fs.existsSync('/usr/bin/soffice');
  const skipped = office ? missing('writer', 'noto-cjk') : 'skipped: no /usr/bin/soffice';
  const MISSING = '服务器未安装 LibreOffice，无法转换此格式的文档';

  /** Marks the document as one that failed for want of LibreOffice (as it did before it was installed). */
  const failForWantOfOffice = (dataDir: string, id: number) =>
    withDatabase(dataDir, (db) =>
      db.updateTable('document').set({ status: 3, pages: 0, convert_error: MISSING }).where('id', '=', id).execute(),
    );

  it.skipIf(skipped !== undefined)(
    `finds it when converting (no restart), offers its formats then, and retries at start what failed for want of it${skipped ? ` — ${skipped}` : ''}`,
    async () => {
      const first = await startBackend();
      const adminToken = await login(first.url, 'admin', first.adminPassword);
      const member = await uploader(first.url, adminToken);
      const word = await createDocument(
        first.url,
        member.token,
        fs.readFileSync(fixture('chinese.docx')),
        '后来安装.docx',
      );
      const converted = await waitForStatus(first.url, member.token, word.id, [2, 3], 120_000);
      expect(converted).toMatchObject({ status: 2, pages: 3 });
      expect(converted.content).toContain(BODY_WORD);
      expect(fs.readdirSync(hashFolder(first.dataDir, word.hash))).toContain('document.pdf');
      await failForWantOfOffice(first.dataDir, word.id);
      await first.close({ keepData: true });

      // "Not installed": LIBREOFFICE_PATH names a folder that holds no LibreOffice yet.
      const folder = fs.mkdtempSync(path.join(path.dirname(first.dataDir), 'libreoffice-'));
      const second = await startBackend({ dataDir: first.dataDir, env: { LIBREOFFICE_PATH: folder } });
      let third: Awaited<ReturnType<typeof startBackend>> | undefined;
      try {
        const token = await login(second.url, 'admin', second.adminPassword);
        expect(
          (await api(second.url, 'GET', '/api/v1/document', { token, query: { id: word.id } })).body,
        ).toMatchObject({ status: 3, convert_error: MISSING });
        expect((await api(second.url, 'GET', '/api/v1/document/formats')).body.ext).not.toContain('.docx');
        const refused = await uploadDocument(
          second.url,
          member.token,
          fs.readFileSync(fixture('chinese.docx')),
          '另一份.docx',
        );
        expect(refused).toMatchObject({
          status: 400,
          body: { message: '本站暂时无法转换 .docx 格式的文档，请另存为 PDF 后上传' },
        });

        // Installed: 重新转换 finds it, with no restart.
        fs.symlinkSync(path.dirname(fs.realpathSync('/usr/bin/soffice')), path.join(folder, 'program'));
        expect(
          (await api(second.url, 'PUT', '/api/v1/document/reconvert', { token, body: { id: [word.id] } })).status,
        ).toBe(200);
        expect(await waitForStatus(second.url, member.token, word.id, [2, 3], 120_000)).toMatchObject({
          status: 2,
          pages: 3,
        });
        await failForWantOfOffice(second.dataDir, word.id);
        await second.close({ keepData: true });

        // A start with LibreOffice there tries again what failed for want of it.
        third = await startBackend({ dataDir: first.dataDir, env: { LIBREOFFICE_PATH: folder } });
        expect(await waitForStatus(third.url, member.token, word.id, [2], 120_000)).toMatchObject({
          status: 2,
          pages: 3,
        });
        expect((await api(third.url, 'GET', '/api/v1/document/formats')).body.ext).toContain('.docx');
      } finally {
        await (third ?? second).close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
    300_000,
  );
});

describe('a 2,000-page PDF', () => {
  it('converts every page while the site keeps answering; progress for the owner only', async () => {
    // The engine's progress past its first report is held until the owner has seen it: a fast
    // machine would otherwise convert the pages between two polls, or the job write the total last.
    const reports: number[] = [];
    let seen!: () => void;
    const ownerSaw = new Promise<void>((resolve) => (seen = resolve));
    const holdProgress = convertingThrough(async (request, engine) => {
      const held: ConversionProgress[] = [];
      const result = await engine.convertDocument({
        ...request,
        onProgress: (progress) => {
          reports.push(progress.done);
          if (reports.length === 1) request.onProgress?.(progress);
          else held.push(progress);
        },
      });
      await ownerSaw;
      for (const progress of held) request.onProgress?.(progress);
      return result;
    });
    const own = await startBackend({ build: { converter: holdProgress } });
    try {
      const owner = await uploader(own.url, await login(own.url, 'admin', own.adminPassword));
      const doc = await createDocument(own.url, owner.token, textPdf(2000), '两千页.pdf');
      const stranger = await registerMember(own.url);
      const progress: number[] = [];
      let settingsAnswered = 0;
      let strangerSawProgress = false;
      for (;;) {
        const settings = await api(own.url, 'GET', '/api/v1/settings');
        expect(settings.status).toBe(200);
        const mine = await api(own.url, 'GET', '/api/v1/document', { token: owner.token, query: { id: doc.id } });
        const status = mine.body.status ?? 0;
        if (status === 2 || status === 3) break;
        settingsAnswered += 1;
        const done = mine.body.convert_progress?.done;
        if (done !== undefined) progress.push(done);
        const theirs = await api(own.url, 'GET', '/api/v1/document', {
          token: stranger.token,
          query: { id: doc.id },
        });
        if (theirs.body.convert_progress) strangerSawProgress = true;
        if (done > 0 && done < 2000) seen();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const done = (await api(own.url, 'GET', '/api/v1/document', { token: owner.token, query: { id: doc.id } })).body;
      expect(done).toMatchObject({ status: 2, pages: 2000, preview: 12 });
      expect(settingsAnswered).toBeGreaterThan(0);
      expect(progress.some((n) => n > 0 && n < 2000)).toBe(true);
      expect(strangerSawProgress).toBe(false);
      // The engine told every step up to the last page.
      expect(reports.at(-1)).toBe(2000);
      expect(reports).toEqual([...reports].sort((a, b) => a - b));
      const last = await page(`${own.url}/view/page/${doc.hash}/2000.svg`, {
        authorization: `Bearer ${owner.token}`,
        'accept-encoding': 'gzip',
      });
      expect(last.status).toBe(200);
      expect(gunzipSync(last.body).toString('utf8')).toContain('<svg');
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('bad input ends in status 3 with its reason, and the converter goes on', () => {
  const hundredMiB = deflated(Buffer.alloc(100 * 1024 * 1024));
  const cases: [string, string, () => Buffer, string][] = [
    ['a corrupt PDF', 'corrupt.pdf', () => brokenPdf(), '文档已损坏或无法解析，无法转换'],
    [
      'a truncated PDF whose page tree was past the cut',
      'truncated.pdf',
      () => fs.readFileSync(fixture('chinese.pdf')).subarray(0, 4000),
      '文件已损坏或不完整（第 1 页起内容缺失），请上传完整的文件',
    ],
    [
      'a truncated PDF whose later pages were past the cut',
      'later-pages-cut.pdf',
      () => {
        const whole = textPdf(4);
        return whole.subarray(0, whole.indexOf(`\n${new mupdf.PDFDocument(whole).findPage(2).asIndirect()} 0 obj`));
      },
      '文件已损坏或不完整（第 3 页起内容缺失），请上传完整的文件',
    ],
    ['an encrypted PDF', 'encrypted.pdf', () => encryptedPdf(), '文档已加密，无法转换'],
    [
      'a zip bomb',
      'bomb.epub',
      () =>
        zip([
          { name: 'mimetype', data: 'application/epub+zip', store: true },
          ...Array.from({ length: 11 }, (_, i) => ({ name: `OEBPS/${i}.xhtml`, data: hundredMiB })),
        ]),
      '文档解压后过大或包含的文件过多，已拒绝转换',
    ],
  ];

  it.each(cases)('%s', async (_what, name, make, reason) => {
    const doc = await createDocument(backend.url, author.token, make(), name);
    const failed = await waitForStatus(backend.url, author.token, doc.id, [2, 3]);
    expect(failed).toMatchObject({ status: 3, convert_error: reason });
    const good = await createDocument(
      backend.url,
      author.token,
      Buffer.from(`${name} 之后的文档\n`),
      `${name}-之后.txt`,
    );
    await waitForStatus(backend.url, author.token, good.id, [2]);
  });

  it("reconverts every failed document with SetDocumentReconvert (MOREDOC's button)", async () => {
    const corrupt = brokenPdf('损坏的麒麟笔记');
    const doc = await createDocument(backend.url, author.token, corrupt, 'again.pdf', { title: '麒麟笔记' });
    await waitForStatus(backend.url, author.token, doc.id, [3]);
    await jobsDone(doc.hash, 1);
    // Failed, it is out of the search index (found while it waited for its conversion).
    const found = async () =>
      (
        (await api(backend.url, 'GET', '/api/v1/document/search', { query: { wd: '麒麟笔记' } })).body.document ?? []
      ).map((d: { id: number }) => d.id);
    expect(await found()).not.toContain(doc.id);
    expect((await backend.admin('PUT', '/api/v1/document/reconvert')).status).toBe(200);
    await waitForStatus(backend.url, author.token, doc.id, [3]);
    expect(await jobRuns(doc.hash)).toBe(2);
  });
});

describe('a file LibreOffice cannot convert', () => {
  const writer = missing('writer');

  it.skipIf(writer !== undefined)(
    `tells its uploader what failed and what to do, without naming LibreOffice, which the admins still read${writer ? ` — ${writer}` : ''}`,
    async () => {
      const member = await uploader(backend.url, backend.adminToken);
      // A zip as an Office file is, but not an Office document: LibreOffice loads nothing from it.
      const zipped = zip([{ name: 'notes.txt', data: '一个普通的压缩包，不是 Word 文档' }]);
      const doc = await createDocument(backend.url, member.token, zipped, '周报.docx', { title: '打不开的周报' });
      const memberReason = '文档无法转换，请检查文件是否损坏，或另存为 PDF 后重新上传';
      expect(await waitForStatus(backend.url, member.token, doc.id, [2, 3])).toMatchObject({
        status: 3,
        convert_error: memberReason,
      });
      const mine = await api(backend.url, 'GET', '/api/v1/document/list', {
        token: member.token,
        query: { user_id: member.user.id },
      });
      expect(mine.body.document).toEqual([expect.objectContaining({ id: doc.id, convert_error: memberReason })]);
      const messages = await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token });
      expect(messages.body.message).toEqual([
        expect.objectContaining({ type: 3, content: `您上传的文档《打不开的周报》转换失败：${memberReason}` }),
      ]);

      const asAdmin = await backend.admin('GET', '/api/v1/document', { query: { id: doc.id } });
      expect(asAdmin.body).toMatchObject({ status: 3, convert_error: 'LibreOffice 无法转换此文档' });
      const adminList = await backend.admin('GET', '/api/v1/document/list', { query: { status: 3, size: 100 } });
      expect(adminList.body.document).toContainEqual(
        expect.objectContaining({ id: doc.id, convert_error: 'LibreOffice 无法转换此文档' }),
      );
    },
  );
});

describe('a failed conversion in the log', () => {
  it("logs the file, its documents, the reason and the tool's own words, which the document's message leaves out", async () => {
    const lines: string[] = [];
    const logged = await startBackend({
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const member = await uploader(logged.url, await login(logged.url, 'admin', logged.adminPassword));
      const zipped = zip([{ name: 'notes.txt', data: '一个普通的压缩包，不是 EPUB' }]);
      const doc = await createDocument(logged.url, member.token, zipped, '压缩包.epub');
      expect(await waitForStatus(logged.url, member.token, doc.id, [2, 3])).toMatchObject({
        status: 3,
        convert_error: '文档已损坏或无法解析，无法转换',
      });
      const failures = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.msg === 'document conversion failed');
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ level: 40, hash: doc.hash, documents: [doc.id], reason: 'corrupt' });
      expect(failures[0]!.detail).toMatch(/container\.xml/);
    } finally {
      await logged.close();
    }
  });
});

describe('limits and converters from the environment', () => {
  it('fails documents over CONVERT_TIMEOUT_MS', async () => {
    // A limit of its own: on a loaded machine even the page count of a big PDF may take a second.
    const hurried = await startBackend({ env: { CONVERT_TIMEOUT_MS: '1000' } });
    try {
      const member = await uploader(hurried.url, await login(hurried.url, 'admin', hurried.adminPassword));
      const slow = await createDocument(hurried.url, member.token, textPdf(1400), '太慢.pdf');
      expect(await waitForStatus(hurried.url, member.token, slow.id, [2, 3])).toMatchObject({
        status: 3,
        convert_error: '文档转换超时（限时 1 秒）',
      });
    } finally {
      await hurried.close();
    }
  }, 90_000);

  it('fails documents over CONVERT_MAX_PAGES, and refuses uploads that need a converter that is missing', async () => {
    const limited = await startBackend({
      env: { CONVERT_MAX_PAGES: '1500', LIBREOFFICE_PATH: 'off', CALIBRE_PATH: 'off' },
    });
    try {
      const adminToken = await login(limited.url, 'admin', limited.adminPassword);
      const member = await uploader(limited.url, adminToken);
      const tooLong = await createDocument(limited.url, member.token, textPdf(2000), '太长.pdf');
      expect(await waitForStatus(limited.url, member.token, tooLong.id, [2, 3])).toMatchObject({
        status: 3,
        convert_error: '文档共 2000 页，超出 1500 页的限制，无法转换',
      });
      // An Office file would only fail: the upload is refused, naming what is missing.
      const word = await uploadDocument(
        limited.url,
        member.token,
        fs.readFileSync(fixture('chinese.docx')),
        '文档.docx',
      );
      expect(word).toMatchObject({
        status: 400,
        body: { message: '本站暂时无法转换 .docx 格式的文档，请另存为 PDF 后上传' },
      });
      const book = await uploadDocument(limited.url, member.token, fs.readFileSync(fixture('chinese.azw3')), '书.azw3');
      expect(book.body.message).toBe('本站暂时无法转换 .azw3 格式的电子书，请转换为 EPUB 或 PDF 后上传');
      const formats = (await api(limited.url, 'GET', '/api/v1/document/formats')).body.ext;
      expect(formats).toEqual(expect.arrayContaining(['.pdf', '.epub', '.txt', '.mobi']));
      expect(formats).not.toEqual(expect.arrayContaining(['.docx']));
      expect(
        formats.filter((ext: string) => ['.doc', '.xlsx', '.pptx', '.wps', '.chm', '.azw3'].includes(ext)),
      ).toEqual([]);
      const envs = await api(limited.url, 'GET', '/api/v1/envs', { token: adminToken });
      expect(envs.body.envs).toMatchObject([
        { name: 'MuPDF', is_installed: true },
        { name: 'LibreOffice', error: expect.stringContaining('未找到 LibreOffice') },
        { name: 'Calibre', error: expect.stringContaining('未找到 calibre') },
      ]);
      expect(envs.body.envs[1].is_installed).toBeUndefined();
    } finally {
      await limited.close();
    }
  }, 90_000);

  it.runIf(process.platform === 'linux')(
    "renders pages, and encodes their images, on threads niced by CONVERT_NICE, the requests' thread left as it was",
    async () => {
      const base = getPriority();
      const increment = Math.min(6, 19 - base);
      const niced = async () =>
        (await threadStates()).filter((thread) => !isImageThread(thread) && thread.nice === base + increment).length;
      expect(await niced()).toBe(0);
      const polite = await startBackend({ env: { CONVERT_NICE: String(increment), CONVERT_WORKERS: '1' } });
      try {
        const member = await uploader(polite.url, await login(polite.url, 'admin', polite.adminPassword));
        const doc = await createDocument(polite.url, member.token, await scannedPdf(3), '礼让.pdf');
        expect(await waitForStatus(polite.url, member.token, doc.id, [2, 3])).toMatchObject({
          status: 2,
          pages: 3,
          preview_ext: '.webp',
        });
        // and the scans' WebP made after (page-images.ts)
        const webps = () =>
          fs.readdirSync(hashFolder(polite.dataDir, doc.hash)).filter((f) => f.endsWith('.webp') && f !== 'cover.webp')
            .length;
        for (let waited = 0; webps() < 3; waited += 100) {
          if (waited > 30_000) throw new Error('the scans were not made WebP');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The one MuPDF thread, until its idle timeout; this thread (the event loop's) is unchanged.
        expect(await niced()).toBe(1);
        expect(getPriority()).toBe(base);
        // The scans' WebP were encoded by libvips on threads of its own: they run as low, or lower
        // when an earlier backend of this file (CONVERT_NICE 10 by default) lowered them further.
        const imageThreads = (await threadStates()).filter(isImageThread);
        expect(imageThreads.length).toBeGreaterThan(0);
        expect(imageThreads.filter((thread) => thread.nice < base + increment)).toEqual([]);
      } finally {
        await polite.close();
      }
    },
  );
});
