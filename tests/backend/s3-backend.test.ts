import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openPostgres } from '../../backend/db';
import { api, login, startBackend, useBackend, type Member, type StartedBackend } from '../helpers/backend';
import { databaseOf, TEST_ENGINE } from '../helpers/test-database';
import { createDocument, uploadDocument, uploader, waitForStatus, type CreatedDocument } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';

// The backend with its files in an S3 bucket (s3rver) instead of DATA_DIR: a PDF uploaded,
// converted from the bucket and back into it, its pages, covers and download served from
// it with the validators and ranges of the local store, an image under /uploads/, and
// failed uploads that leave nothing in the bucket. DATA_DIR keeps the database only.

// The conversion's scratch folder comes from os.tmpdir(): a folder of this test's own.
const scratchRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-s3-scratch-'));
const previousTmpdir = process.env.TMPDIR;
process.env.TMPDIR = scratchRoot;
afterAll(() => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  fs.rmSync(scratchRoot, { recursive: true, force: true });
});

const backend = useBackend({ s3: true });
let author: Member;
let doc: CreatedDocument;
const pdf = textPdf(3);
const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');

async function objectKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: backend.s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: backend.s3.env.S3_ACCESS_KEY_ID!,
      secretAccessKey: backend.s3.env.S3_SECRET_ACCESS_KEY!,
    },
  });
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: backend.s3.bucket }));
    return (page.Contents ?? []).map((o) => o.Key!).sort();
  } finally {
    client.destroy();
  }
}

/** Every file under DATA_DIR, relative. */
function dataFiles(): string[] {
  return (fs.readdirSync(backend.dataDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(backend.dataDir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(backend.url + url, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  doc = await createDocument(backend.url, author.token, pdf, '三页.pdf');
  expect(await waitForStatus(backend.url, author.token, doc.id, [2])).toMatchObject({ pages: 3 });
});

describe('a document in the bucket', () => {
  it('keeps the original and the converted pages in the bucket, and nothing of them under DATA_DIR', async () => {
    const folder = `documents/${doc.hash.slice(0, 5).split('').join('/')}`;
    const keys = await objectKeys();
    expect(keys).toContain(`${folder}/${doc.hash}.pdf`);
    expect(keys).toContain(`${folder}/${doc.hash}/manifest.json`);
    expect(keys).toContain(`${folder}/${doc.hash}/cover.png`);
    // page 1's image and its text positions (the reader's find and text layer)
    expect(keys.filter((key) => key.startsWith(`${folder}/${doc.hash}/1.`)).sort()).toEqual([
      `${folder}/${doc.hash}/1.gzip.svg`,
      `${folder}/${doc.hash}/1.pos.gz`,
    ]);
    expect(keys.filter((key) => key.startsWith('tmp/'))).toEqual([]);
    expect(dataFiles().filter((file) => !/^moredoc\.db(-wal|-shm)?$/.test(file))).toEqual([]);
  });

  it('keeps the sitemaps in the bucket, where every process serving the site finds them', async () => {
    await backend.setConfig({ 'system.domain': 'https://wenku.example.com' });
    expect((await api(backend.url, 'PUT', '/api/v1/sitemap', { token: backend.adminToken })).status).toBe(200);
    const keys = (await objectKeys()).filter((key) => key.startsWith('sitemap/'));
    expect(keys).toEqual(['sitemap/articles-0.xml', 'sitemap/fingerprint', 'sitemap/sitemap.xml']);
    const index = await get('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(index.bytes.toString()).toContain('<loc>https://wenku.example.com/sitemap/articles-0.xml</loc>');
    expect((await get('/sitemap/articles-0.xml')).bytes.toString()).toContain('https://wenku.example.com/');
    expect(dataFiles().filter((file) => file.startsWith('sitemap'))).toEqual([]);
  });

  it('removed the scratch copy of the original the conversion read', async () => {
    // The job removes it last, after the document shows as converted: it is gone soon after.
    await expect
      .poll(() => fs.readdirSync(scratchRoot).filter((name) => name.startsWith('moredoc-document-')), {
        timeout: 10_000,
      })
      .toEqual([]);
  });

  it('serves the pages from the bucket with an ETag, 304 on If-None-Match, the same in process', async () => {
    const first = await get(`/view/page/${doc.hash}/1.svg`, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/svg+xml');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{8}-\w+-\w+"$/);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const again = await get(`/view/page/${doc.hash}/1.svg`, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);

    const inProcess = await backend.viewFiles(`/view/page/${doc.hash}/1.svg`, {
      authorization: undefined,
      acceptEncoding: 'gzip',
      ifNoneMatch: undefined,
    });
    expect(inProcess).toMatchObject({ status: 200, headers: { etag } });
    const cover = await get(`/view/cover/${doc.hash}`);
    expect(cover.status).toBe(200);
    expect(cover.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('downloads the original from the bucket, whole and by range, with its validators', async () => {
    const link = await api(backend.url, 'GET', '/api/v1/document/download', {
      token: author.token,
      query: { id: doc.id },
    });
    expect(link.status, link.text).toBe(200);
    const whole = await get(link.body.url);
    expect(whole.status).toBe(200);
    expect(md5(whole.bytes)).toBe(doc.hash);
    expect(whole.headers.get('etag')).toBe(`"${doc.hash}"`);
    expect(whole.headers.get('content-disposition')).toContain("filename*=UTF-8''%E4%B8%89%E9%A1%B5.pdf");
    const part = await get(link.body.url, { range: 'bytes=5-14' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 5-14/${pdf.length}`);
    expect(part.bytes.equals(pdf.subarray(5, 15))).toBe(true);
    expect((await get(link.body.url, { 'if-none-match': `"${doc.hash}"` })).status).toBe(304);
    expect((await get(link.body.url, { range: `bytes=${pdf.length}-` })).status).toBe(416);
  });

  it('reuses the conversion for the same file uploaded again without reading the original back', async () => {
    // The original in the bucket made into bytes that are no PDF: a reuse that downloaded it to check its
    // content would refuse the new document (文件内容与扩展名 .pdf 不符); the manifest says what it holds.
    const folder = `documents/${doc.hash.slice(0, 5).split('').join('/')}`;
    const stored = backend.s3.objectFile(`${folder}/${doc.hash}.pdf`);
    const bytes = fs.readFileSync(stored);
    fs.writeFileSync(stored, Buffer.from('这不是 PDF 文件'));
    try {
      const other = await uploader(backend.url, backend.adminToken);
      const twin = await createDocument(backend.url, other.token, pdf, '同一个文件.pdf');
      expect(twin.hash).toBe(doc.hash);
      expect(await waitForStatus(backend.url, other.token, twin.id, [2, 3])).toMatchObject({ status: 2, pages: 3 });
    } finally {
      fs.writeFileSync(stored, bytes);
    }
  });
});

describe('images under /uploads/ from the bucket', () => {
  it("serves an avatar with the static route's headers, 304s and ranges", async () => {
    const png = Buffer.alloc(200);
    Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 9, 0, 0, 0, 7, 8, 2,
    ]).copy(png);
    png.fill(7, 40);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'me.png');
    const res = await fetch(`${backend.url}/api/v1/upload/avatar`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${author.token}` },
    });
    const uploaded = (await res.json()) as { data: { path: string } };
    expect(res.status).toBe(200);

    const served = await get(uploaded.data.path);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(png)).toBe(true);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('accept-ranges')).toBe('bytes');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"c8-[0-9a-f]+"$/);
    expect((await get(uploaded.data.path, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(uploaded.data.path, { 'if-modified-since': served.headers.get('last-modified')! })).status).toBe(
      304,
    );
    const range = await get(uploaded.data.path, { range: 'bytes=0-7' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 0-7/200');
    expect(range.bytes.equals(png.subarray(0, 8))).toBe(true);
    expect((await get(uploaded.data.path.replace(/\.png$/, '.gif'))).status).toBe(404);
    expect((await get('/uploads/.hidden/x.png')).status).toBe(404);
  });
});

describe('failed uploads', () => {
  /** Objects of the bucket besides those there before, and unfinished multipart uploads. */
  async function leftoversSince(before: string[]) {
    return {
      objects: (await objectKeys()).filter((key) => !before.includes(key)),
      uploads: backend.s3.pendingUploads(),
    };
  }

  it('leaves nothing in the bucket, and no parts, for a document over the size limit', async () => {
    const before = await objectKeys();
    // 9 MB: one 8 MiB part has gone up when the byte past the limit arrives.
    await backend.setConfig({ 'security.max_document_size': '9' });
    try {
      const big = Buffer.concat([pdf, crypto.randomBytes(9 * 1024 * 1024 + 1 - pdf.length)]);
      const refused = await uploadDocument(backend.url, author.token, big, 'big.pdf');
      expect(refused).toMatchObject({ status: 400, body: { message: '文件大小超出限制（最大 9 MB）' } });
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
    }
    expect(await leftoversSince(before)).toEqual({ objects: [], uploads: [] });
  });

  it('leaves nothing in the bucket for a form of two files', async () => {
    const before = await objectKeys();
    const form = new FormData();
    for (const name of ['一.pdf', '二.pdf']) form.append('file', new Blob([new Uint8Array(textPdf(1))]), name);
    const res = await fetch(`${backend.url}/api/v1/upload/document`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${author.token}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('一次只能上传一个文件');
    expect(await leftoversSince(before)).toEqual({ objects: [], uploads: [] });
  });

  it('leaves nothing in the bucket, and no parts, when the client goes away mid-upload', async () => {
    const before = await objectKeys();
    const boundary = 'moredoc-s3-test';
    const total = 20 * 1024 * 1024;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const { port } = new URL(backend.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/upload/document HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${author.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n${head}`,
    );
    // 12 MiB of the 20: more than one 8 MiB part has gone up when the client leaves.
    const chunk = crypto.randomBytes(1024 * 1024);
    for (let sent = 0; sent < 12; sent += 1) {
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
    }
    await waitFor(() => backend.s3.pendingUploads().length > 0);
    socket.destroy();
    await waitFor(async () => {
      const left = await leftoversSince(before);
      return left.objects.length === 0 && left.uploads.length === 0;
    });
    expect(await leftoversSince(before)).toEqual({ objects: [], uploads: [] });
  });
});

describe('an upload whose client leaves while the bucket holds its answer', () => {
  // Between the backend and s3rver, a relay that can hold the bucket's answers to the put of an
  // upload's temporary object (a bucket that stops answering for a while) and then pass them on:
  // the put ends after all.
  let holding = false;
  const held: (() => void)[] = [];
  const releases: (() => void)[] = [];
  let tempDeletes = 0;
  /** The backend's connections to the bucket whose answer was held at least once. */
  const heldConnections = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  let relay: net.Server;
  let relayPort = 0;
  beforeAll(async () => {
    relay = net.createServer((client) => {
      const target = new URL(slow.s3.endpoint);
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      }
      let holdThis = false;
      releases.push(() => (holdThis = false));
      client.on('data', (chunk: Buffer) => {
        const start = chunk.subarray(0, 300).toString('latin1');
        if (holding && /^PUT \S*\/tmp\//.test(start)) {
          holdThis = true;
          heldConnections.add(client);
        }
        if (/^DELETE \S*\/tmp\//.test(start)) tempDeletes += 1;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (holdThis) held.push(() => client.write(chunk));
        else client.write(chunk);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    relayPort = (relay.address() as net.AddressInfo).port;
  });
  const slow = useBackend({ s3: true, env: () => ({ S3_ENDPOINT: `http://127.0.0.1:${relayPort}` }) });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => relay.close(resolve));
  });

  it('keeps nothing and records no attachment once the bucket answers', async () => {
    const owner = await uploader(slow.url, slow.adminToken);
    const attachments = async () =>
      (await slow.admin('GET', '/api/v1/attachment/list', { query: { page: 1, size: 1 } })).body.total as number;
    const recorded = await attachments();
    const boundary = 'moredoc-s3-gone';
    const file = textPdf(1);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.pdf"\r\n` +
          `Content-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    holding = true;
    const { port } = new URL(slow.url);
    const accepted = new Promise<net.Socket>((resolve) => slow.app.server.once('connection', resolve));
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const serverSide = await accepted;
    socket.write(
      `POST /api/v1/upload/document HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${owner.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
    // The whole file went up; the bucket's answer to its put is held.
    await waitFor(() => held.length > 0);
    const deletesBefore = tempDeletes;
    socket.destroy();
    // The backend sees its client gone (a gateway's 504 comes long before a bucket answers): its
    // request's own close listeners run before this one, on the same socket's close.
    await new Promise((resolve) => (serverSide.destroyed ? resolve(null) : serverSide.once('close', resolve)));
    holding = false;
    for (const pass of held.splice(0)) pass();
    for (const release of releases) release();
    // The temporary object of the put is removed either way: kept (copied first) or refused.
    await waitFor(async () => tempDeletes > deletesBefore && !slow.s3.objectKeys().some((key) => key.includes('tmp/')));
    // (Its own start writes other objects meanwhile.)
    expect(slow.s3.objectKeys().filter((key) => key.includes(md5(file)))).toEqual([]);
    expect(await attachments()).toBe(recorded);
  });

  it('cuts the put of a multipart upload at once and aborts it, while the bucket still holds its answers', async () => {
    const owner = await uploader(slow.url, slow.adminToken);
    const attachments = async () =>
      (await slow.admin('GET', '/api/v1/attachment/list', { query: { page: 1, size: 1 } })).body.total as number;
    const recorded = await attachments();
    const boundary = 'moredoc-s3-gone-multipart';
    // 9 MiB: one 8 MiB part, then the rest, each an UploadPart whose answer the bucket holds.
    const file = Buffer.concat([textPdf(1), crypto.randomBytes(9 * 1024 * 1024)]);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
          `Content-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    heldConnections.clear();
    holding = true;
    try {
      const { port } = new URL(slow.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/v1/upload/document HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${owner.token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      // A part went up and its answer is held: the upload is under way in the bucket.
      await waitFor(() => held.length > 0 && slow.s3.pendingUploads().length > 0);
      socket.destroy();
      // Nothing is released: the backend itself closes its connections of the held parts (no tries
      // left to run) and aborts the multipart upload; no object stays, temporary or kept.
      await waitFor(
        () =>
          [...heldConnections].every((connection) => connection.destroyed) &&
          slow.s3.pendingUploads().length === 0 &&
          !slow.s3.objectKeys().some((key) => key.includes('tmp/')),
      );
      expect(slow.s3.objectKeys().filter((key) => key.includes(md5(file)))).toEqual([]);
      expect(slow.s3.pendingUploads()).toEqual([]);
      expect(await attachments()).toBe(recorded);
    } finally {
      holding = false;
      held.splice(0);
      for (const release of releases) release();
    }
  });
});

describe('with S3_PRESIGNED_DOWNLOADS', () => {
  const presigning = useBackend({ s3: true, env: { S3_PRESIGNED_DOWNLOADS: 'true' } });

  it('redirects a valid download link to a short-lived URL of the bucket, and still refuses a bad one', async () => {
    const owner = await uploader(presigning.url, presigning.adminToken);
    const own = await createDocument(presigning.url, owner.token, pdf, '预签名.pdf');
    await waitForStatus(presigning.url, owner.token, own.id, [2]);
    const link = await api(presigning.url, 'GET', '/api/v1/document/download', {
      token: owner.token,
      query: { id: own.id },
    });
    expect(link.status, link.text).toBe(200);

    const redirect = await fetch(presigning.url + link.body.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin).toBe(presigning.s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''%E9%A2%84%E7%AD%BE%E5%90%8D.pdf");
    expect(md5(Buffer.from(await file.arrayBuffer()))).toBe(own.hash);

    const tampered = await fetch(presigning.url + link.body.url.replace(/\/download\/[\w-]+/, '/download/x'), {
      redirect: 'manual',
    });
    expect(tampered.status).toBe(400);
  });
});

describe('/readyz', () => {
  it('says 503 while the bucket does not answer, and ready again once it does', async () => {
    const readiness = async () => {
      const res = await fetch(`${backend.url}/readyz`);
      return { status: res.status, cache: res.headers.get('cache-control'), body: await res.json() };
    };
    expect(await readiness()).toMatchObject({ status: 200, cache: 'no-store', body: { status: 'ready' } });
    await backend.s3.pause();
    try {
      expect(await readiness()).toEqual({
        status: 503,
        cache: 'no-store',
        body: { code: 14, message: '文件存储暂时不可用，请稍后再试', error: '文件存储暂时不可用，请稍后再试' },
      });
    } finally {
      await backend.s3.resume();
    }
    expect(await readiness()).toMatchObject({ status: 200, cache: 'no-store', body: { status: 'ready' } });
  });
});

describe('a conversion whose bucket is away', () => {
  it('is not failed on its last attempt: the job waits for the bucket, the attempt not counted, and converts once it is back', async () => {
    // A web instance (RUN_JOBS=false) takes the upload; a worker on the same database and bucket
    // claims the job while the bucket is away.
    const web = await startBackend({ env: { RUN_JOBS: 'false' }, s3: backend.s3 });
    let worker: StartedBackend | undefined;
    const shared = TEST_ENGINE === 'postgres' ? { DATABASE_URL: databaseOf(web.dataDir)! } : undefined;
    const handle =
      TEST_ENGINE === 'postgres'
        ? (await openPostgres({ url: shared!.DATABASE_URL, label: 'test', poolSize: 1 })).db
        : (await openDatabase(web.dataDir)).db;
    try {
      const adminToken = await login(web.url, 'admin', web.adminPassword);
      const member = await uploader(web.url, adminToken);
      const created = await createDocument(web.url, member.token, textPdf(2, [300, 400]), '停机.pdf');
      const job = () =>
        handle
          .selectFrom('job')
          .select(['state', 'attempts', 'last_error'])
          .where('dedupe_key', '=', `document.convert:${created.hash}`)
          .executeTakeFirstOrThrow();
      const setJob = (values: { attempts?: number; run_after?: string }) =>
        handle.updateTable('job').set(values).where('dedupe_key', '=', `document.convert:${created.hash}`).execute();
      // Two attempts spent already: the worker's claim is the last of three. Not before the bucket
      // is away (a backend checks its bucket at start).
      await setJob({ attempts: 2, run_after: '9999-12-31T00:00:00.000Z' });
      worker = await startBackend({ env: shared ?? {}, s3: backend.s3, ...(shared ? {} : { dataDir: web.dataDir }) });
      await backend.s3.pause();
      try {
        await setJob({ run_after: new Date().toISOString() });
        await waitFor(async () => (await job()).last_error !== '', 30_000);
        await waitFor(async () => (await job()).state !== 'running');
        expect(await job()).toMatchObject({
          state: 'queued',
          attempts: 2,
          last_error: '文件存储暂时不可用，请稍后再试',
        });
        const waiting = await api(web.url, 'GET', '/api/v1/document', {
          token: member.token,
          query: { id: created.id },
        });
        expect(waiting.body.status).toBe(1);
      } finally {
        await backend.s3.resume();
      }
      // Its wait (the backoff) passed: it runs again, and converts.
      await setJob({ run_after: new Date().toISOString() });
      expect(await waitForStatus(web.url, member.token, created.id, [2, 3])).toMatchObject({ status: 2, pages: 2 });
    } finally {
      await handle.destroy();
      await worker?.close({ keepData: TEST_ENGINE === 'sqlite' });
      await web.close();
    }
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}
