import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, useBackend, type Member } from '../helpers/backend';
import { createDocument, uploader, waitForStatus, type CreatedDocument } from '../helpers/document-api';
import { onS3 } from '../helpers/engines';
import { textPdf } from '../helpers/documents';
import { recordedConversions } from '../helpers/recorded-conversions';
import { startGateway, type TestGateway } from '../gateway/helpers';

// One byte range of a page (`/view/page`) and of a download, on the local store and on S3
// (s3rver): 206 with Content-Range and the range's bytes, a suffix range, 416 past the end,
// If-Range on the ETag, 304 before any range. Pages are asked of the backend and of a gateway
// serving them in process (gateway/view-files.ts), which must pass the range on.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

describe.each([{ store: 'local', s3: false }, ...onS3({ store: 'S3', s3: true })])('on the $store store', ({ s3 }) => {
  const backend = useBackend({ s3, build: { converter: recordedConversions } });
  const pdf = textPdf(3);
  let author: Member;
  let doc: CreatedDocument;
  let gateway: TestGateway;
  /** Page 1 as stored (gzip SVG) and its ETag. */
  let page: Buffer;
  let etag: string;
  const pageUrl = (base: string) => `${base}/view/page/${doc.hash}/1.svg`;
  const gzip = { 'accept-encoding': 'gzip' };

  beforeAll(async () => {
    author = await uploader(backend.url, backend.adminToken);
    doc = await createDocument(backend.url, author.token, pdf, '三页.pdf');
    expect(await waitForStatus(backend.url, author.token, doc.id, [2])).toMatchObject({ pages: 3 });
    gateway = await startGateway(backend.url, {}, { viewFiles: backend.viewFiles });
    const whole = await get(pageUrl(backend.url), gzip);
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    page = whole.body;
    etag = String(whole.headers.etag);
    expect(page.length).toBeGreaterThan(100);
  });
  afterAll(() => gateway?.close());

  it.each(['backend', 'gateway'])('serves one range of a page through the %s, with its headers', async (via) => {
    const base = via === 'backend' ? backend.url : gateway.url;
    const part = await get(pageUrl(base), { ...gzip, range: 'bytes=10-29' });
    expect(part.status).toBe(206);
    expect(part.headers).toMatchObject({
      'content-range': `bytes 10-29/${page.length}`,
      'content-length': '20',
      'content-encoding': 'gzip',
      'content-type': 'image/svg+xml',
      etag,
    });
    expect(part.body.equals(page.subarray(10, 30))).toBe(true);

    const tail = await get(pageUrl(base), { ...gzip, range: 'bytes=-7' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${page.length - 7}-${page.length - 1}/${page.length}`);
    expect(tail.body.equals(page.subarray(page.length - 7))).toBe(true);

    const past = await get(pageUrl(base), { ...gzip, range: `bytes=${page.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${page.length}`);
    expect(past.body.length).toBe(0);
  });

  it('sends the whole page for a stale If-Range, 304 for a known ETag, and no range of an inflated page', async () => {
    const stale = await get(pageUrl(backend.url), { ...gzip, range: 'bytes=0-9', 'if-range': '"another-version"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(page)).toBe(true);
    const matching = await get(pageUrl(backend.url), { ...gzip, range: 'bytes=0-9', 'if-range': etag });
    expect(matching.status).toBe(206);
    expect(matching.body.equals(page.subarray(0, 10))).toBe(true);
    const cached = await get(pageUrl(gateway.url), { ...gzip, range: 'bytes=0-9', 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    // The inflated SVG is made on the fly: its length is not known, so the whole of it is sent.
    const inflated = await get(pageUrl(gateway.url), { 'accept-encoding': 'identity', range: 'bytes=0-9' });
    expect(inflated.status).toBe(200);
    expect(inflated.headers['content-range']).toBeUndefined();
    expect(inflated.headers['accept-ranges']).toBeUndefined();
    expect(inflated.body.equals(gunzipSync(page))).toBe(true);
  });

  it('serves one range of a download, with its headers, and 416 past the end', async () => {
    const link = await api(backend.url, 'GET', '/api/v1/document/download', {
      token: author.token,
      query: { id: doc.id },
    });
    expect(link.status, link.text).toBe(200);
    const url = new URL(link.body.url, backend.url).href;
    const part = await get(url, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers).toMatchObject({
      'content-range': `bytes 100-199/${pdf.length}`,
      'content-length': '100',
      etag: `"${doc.hash}"`,
      'content-type': 'application/pdf',
    });
    expect(part.body.equals(pdf.subarray(100, 200))).toBe(true);
    const tail = await get(url, { range: 'bytes=-50' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(pdf.subarray(pdf.length - 50))).toBe(true);
    const past = await get(url, { range: `bytes=${pdf.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${pdf.length}`);
  });
});
