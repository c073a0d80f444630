import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase, type Member } from '../../helpers/backend';
import {
  createDocument,
  pricedFivePages,
  uploader,
  waitForStatus,
  type CreatedDocument,
} from '../../helpers/document-api';
import { linesPdf, textPdf } from '../../helpers/documents';
import { CRAWLER, startGateway, type TestGateway } from '../../gateway/helpers';
import { documentPagePath } from '../../../shared/page-paths';
import { recordedConversions } from '../../helpers/recorded-conversions';

// `/view/page` and `/view/cover`: who may see which page (unlike MOREDOC, which serves every
// file to anybody), the representation served whatever was asked for, caching, hostile paths,
// and the same answers through the gateway.

const backend = useBackend({ build: { converter: recordedConversions } });
let author: Member;
let stranger: Member;
let doc: CreatedDocument;

async function get(path: string, opts: { token?: string; headers?: Record<string, string>; base?: string } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await request(`${opts.base ?? backend.url}${path}`, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

const pagePath = (n: number | string, ext = '.svg', hash = doc.hash) => `/view/page/${hash}/${n}${ext}`;

/** Ours: how many pages GetDocument says the caller may read (decision 099). */
async function readablePages(token?: string) {
  const res = await api(backend.url, 'GET', '/api/v1/document', { token, query: { id: doc.id } });
  expect(res.status).toBe(200);
  return res.body.readable_pages;
}

async function setStatus(status: number) {
  const res = await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status } });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  // Two free pages of five: the rest is for the owner, the admins, buyers (and VIP members).
  ({ author, stranger, doc } = await pricedFivePages(backend));
});

describe('pages of a converted document', () => {
  it('shows the free pages to anybody, cacheable by anybody', async () => {
    for (const token of [undefined, stranger.token]) {
      const res = await get(pagePath(2), { token, headers: { 'accept-encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=604800');
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(gunzipSync(res.body).toString('utf8')).toContain('<svg');
    }
  });

  it('keeps the pages past the preview for the owner and the admins (privately cached)', async () => {
    const anonymous = await get(pagePath(3));
    expect(anonymous.status).toBe(403);
    expect(JSON.parse(anonymous.body.toString()).message).toBe('该页超出免费预览范围，请下载文档或开通 VIP 会员后阅读');
    expect((await get(pagePath(5), { token: stranger.token })).status).toBe(403);
    for (const token of [author.token, backend.adminToken]) {
      const res = await get(pagePath(5), { token });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
    }
    expect((await get(pagePath(6), { token: author.token })).status).toBe(404);
    expect(await readablePages()).toBe(2);
    expect(await readablePages(stranger.token)).toBe(2);
    expect(await readablePages(author.token)).toBe(5);
    expect(await readablePages(backend.adminToken)).toBe(5);
  });

  it('reads past the preview, and sees hidden documents, as an admin who edits or reviews documents only (decision 096)', async () => {
    const rows = (await backend.admin('GET', '/api/v1/permission/list', { query: { size: 1000 } })).body.permission as {
      id: number;
      path: string;
    }[];
    const row = (path: string) => rows.find((p) => p.path === path)!.id;
    const memberOfGroupWith = async (title: string, path: string) => {
      const group = (await backend.admin('POST', '/api/v1/group', { body: { title } })).body.id as number;
      await backend.admin('PUT', '/api/v1/group/permission', {
        body: { group_id: group, permission_id: [row(path)] },
      });
      const member = await registerMember(backend.url);
      await backend.admin('PUT', '/api/v1/user', { body: { id: member.user.id, group_id: [group] } });
      return member;
    };
    const support = await memberOfGroupWith('反馈客服', '/api.v1.FeedbackAPI/ListFeedback');
    const editor = await memberOfGroupWith('文档编辑', '/api.v1.DocumentAPI/UpdateDocument');
    const reviewer = await memberOfGroupWith('文档审核员', '/api.v1.DocumentAPI/CheckDocument');
    const text = async (token: string) =>
      (await api(backend.url, 'GET', '/api/v1/document', { token, query: { id: doc.id, with_all_content: true } })).body
        .content as string;
    const found = async (token: string) =>
      (await api(backend.url, 'GET', '/api/v1/document/find', { token, query: { id: doc.id, wd: 'Page' } })).body
        .readable;

    expect((await get(pagePath(3), { token: support.token })).status).toBe(403);
    expect((await text(support.token)).split('\f')).toHaveLength(2);
    expect(await found(support.token)).toBe(2);
    for (const reader of [editor, reviewer]) {
      expect((await get(pagePath(5), { token: reader.token })).status).toBe(200);
      expect((await text(reader.token)).split('\f')).toHaveLength(5);
      expect(await found(reader.token)).toBe(5);
    }

    // Hidden (in review): the details answer as the pages do, 404 to the other admin.
    await setStatus(6);
    try {
      const details = (token: string) => api(backend.url, 'GET', '/api/v1/document', { token, query: { id: doc.id } });
      const finding = (token: string) =>
        api(backend.url, 'GET', '/api/v1/document/find', { token, query: { id: doc.id, wd: 'Page' } });
      expect((await get(pagePath(1), { token: support.token })).status).toBe(404);
      expect((await details(support.token)).status).toBe(404);
      expect((await finding(support.token)).status).toBe(404);
      for (const reader of [editor, reviewer, author]) {
        expect((await get(pagePath(1), { token: reader.token })).status).toBe(200);
        expect((await details(reader.token)).body.readable_pages).toBe(5);
        expect((await finding(reader.token)).body.readable).toBe(5);
      }
    } finally {
      await setStatus(2);
    }
  });

  it('gives buyers every page; a free download buys nothing', async () => {
    const buyer = await registerMember(backend.url);
    const downloader = await registerMember(backend.url);
    await withDatabase(backend.dataDir, (db) => {
      const ts = new Date().toISOString();
      return db
        .insertInto('download')
        .values([
          { user_id: buyer.user.id, document_id: doc.id, ip: '127.0.0.1', is_pay: 1, created_at: ts, updated_at: ts },
          {
            user_id: downloader.user.id,
            document_id: doc.id,
            ip: '127.0.0.1',
            is_pay: 0,
            created_at: ts,
            updated_at: ts,
          },
        ])
        .execute();
    });
    expect((await get(pagePath(4), { token: buyer.token })).status).toBe(200);
    expect((await get(pagePath(4), { token: downloader.token })).status).toBe(403);
    expect(await readablePages(buyer.token)).toBe(5);
    expect(await readablePages(downloader.token)).toBe(2);
  });

  it('gives VIP members every page while their period runs and the settings say so', async () => {
    const reader = await registerMember(backend.url);
    const grant = await backend.admin('POST', '/api/v1/vip/grant', {
      body: { user_id: [reader.user.id], days: 30, reason: '测试阅读' },
    });
    expect(grant.status).toBe(200);
    await backend.setConfig({ 'vip.read_all_pages': 'false' });
    expect((await get(pagePath(4), { token: reader.token })).status).toBe(403);
    expect(await readablePages(reader.token)).toBe(2);
    await backend.setConfig({ 'vip.read_all_pages': 'true' });
    expect(await readablePages(reader.token)).toBe(5);
    const res = await get(pagePath(4), { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
    const revoke = await backend.admin('PUT', '/api/v1/vip/revoke', {
      body: { user_id: [reader.user.id], reason: '测试结束' },
    });
    expect(revoke.status).toBe(200);
    expect((await get(pagePath(4), { token: reader.token })).status).toBe(403);
  });

  it('serves the stored representation whatever extension was asked for, inflated for clients without gzip', async () => {
    const asked = await Promise.all(
      ['.gzip.svg', '.svg', '.webp', '.png', '.jpg'].map((ext) =>
        get(pagePath(1, ext), { headers: { 'accept-encoding': 'gzip, br' } }),
      ),
    );
    for (const res of asked) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.body.equals(asked[0]!.body)).toBe(true);
    }
    const plain = await get(pagePath(1), { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(gunzipSync(asked[0]!.body))).toBe(true);
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers.etag).not.toBe(asked[0]!.headers.etag);
    const refused = await get(pagePath(1), { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(asked[0]!.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get(pagePath(1), { headers: { 'accept-encoding': 'gzip' } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get(pagePath(1), { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves the cover to anybody while the document may be seen', async () => {
    const cover = await get(`/view/cover/${doc.hash}`);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    expect(cover.headers['cache-control']).toBe('public, max-age=604800');
  });
});

describe('a site open to members only (decision 097)', () => {
  it("gives visitors none of a document's pages, text or hits; members read as before", async () => {
    // The description made of the free pages' text, as a first reading writes it.
    const made = await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } });
    expect(made.body.description).toContain('Page');
    await backend.setConfig({ 'security.login_required': 'true' });
    try {
      for (const path of [pagePath(1), `/view/cover/${doc.hash}`]) {
        const res = await get(path);
        expect(res.status, path).toBe(401);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(JSON.parse(res.body.toString())).toMatchObject({
          code: 401,
          message: '本站需登录后才能访问，请登录后阅读或下载',
        });
      }
      const visitor = await api(backend.url, 'GET', '/api/v1/document', {
        query: { id: doc.id, with_all_content: true },
      });
      expect(visitor.status).toBe(200);
      expect(visitor.body.content ?? '').toBe('');
      // Its title and metadata, not its description: the free pages' text (nor the title in its place).
      expect(visitor.body).toMatchObject({ id: doc.id, title: made.body.title, pages: 5 });
      expect(visitor.body.description).toBeUndefined();
      const listed = async (token?: string) =>
        (
          await api(backend.url, 'GET', '/api/v1/document/list', { token, query: { user_id: author.user.id } })
        ).body.document.find((d: { id: number }) => d.id === doc.id);
      expect(await listed()).toMatchObject({ id: doc.id, title: made.body.title });
      expect((await listed()).description).toBeUndefined();
      expect((await listed(stranger.token)).description).toBe(made.body.description);
      const home = await api(backend.url, 'GET', '/api/v1/document/home', { query: { field: ['description'] } });
      expect(JSON.stringify(home.body)).not.toContain('Page');
      const hits = await api(backend.url, 'GET', '/api/v1/document/find', { query: { id: doc.id, wd: 'Page' } });
      expect(hits.body.hit ?? []).toEqual([]);
      expect((await get(pagePath(1), { token: stranger.token })).status).toBe(200);
      const member = await api(backend.url, 'GET', '/api/v1/document', {
        token: stranger.token,
        query: { id: doc.id, with_all_content: true },
      });
      expect(member.body.content.split('\f')).toHaveLength(2);
      expect(member.body.description).toBe(made.body.description);
    } finally {
      await backend.setConfig({ 'security.login_required': 'false' });
    }
  });
});

describe('documents strangers may not see', () => {
  afterAll(async () => {
    await setStatus(2);
  });

  it.each([
    [4, '已禁用'],
    [6, '待审核'],
    [7, '审核拒绝'],
  ])('status %i (%s): 404 to strangers, every page to the owner and the admins', async (status) => {
    await setStatus(status);
    expect((await get(pagePath(1))).status).toBe(404);
    expect((await get(pagePath(1), { token: stranger.token })).status).toBe(404);
    expect((await get(`/view/cover/${doc.hash}`)).status).toBe(404);
    for (const token of [author.token, backend.adminToken]) {
      const res = await get(pagePath(4), { token });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
    }
  });

  it('in the recycle bin: 404 to strangers, visible to the owner', async () => {
    await setStatus(2);
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    try {
      expect((await get(pagePath(1))).status).toBe(404);
      expect((await get(pagePath(1), { token: author.token })).status).toBe(200);
    } finally {
      await backend.admin('PUT', '/api/v1/document/recycle', { body: { id: [doc.id] } });
    }
    expect((await get(pagePath(1))).status).toBe(200);
  });
});

describe('a document in review', () => {
  it('converts at upload, stays hidden, reads for the reviewer, and opens to all once approved', async () => {
    const reviewed = await uploader(backend.url, backend.adminToken, { review: true });
    const pending = await createDocument(backend.url, reviewed.token, textPdf(3), '待审核的三页.pdf');
    expect(pending.status).toBe(6);
    const converted = async () => {
      for (let i = 0; i < 600; i += 1) {
        const got = await backend.admin('GET', '/api/v1/document', { query: { id: pending.id } });
        if ((got.body.pages ?? 0) > 0) return got.body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('never converted');
    };
    expect(await converted()).toMatchObject({ status: 6, pages: 3 });
    const page = (n: number) => `/view/page/${pending.hash}/${n}.svg`;
    expect((await get(page(3), { token: backend.adminToken })).status).toBe(200);
    expect((await get(page(1))).status).toBe(404);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: pending.id } })).status).toBe(404);

    expect(
      (await backend.admin('PUT', '/api/v1/document/check', { body: { id: [pending.id], status: 2 } })).status,
    ).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: pending.id } })).body).toMatchObject({
      status: 2,
      pages: 3,
    });
    expect((await get(page(1))).status).toBe(200);
  });
});

describe('the free pages a conversion set', () => {
  afterAll(async () => {
    await backend.setConfig({ 'converter.max_preview': '2' });
  });

  it('stay when another document is made from the same file under other settings; its own reconversion sets them anew', async () => {
    const file = linesPdf([['Free page one'], ['Free page two'], ['Free page three']]);
    await backend.setConfig({ 'converter.max_preview': '0' });
    const first = await createDocument(backend.url, author.token, file, '三页全免费.pdf');
    expect(await waitForStatus(backend.url, author.token, first.id, [2])).toMatchObject({ pages: 3, preview: 3 });

    // The admin lowers 最大预览页数; a member uploads the same file as a document of their own.
    await backend.setConfig({ 'converter.max_preview': '1' });
    const other = await uploader(backend.url, backend.adminToken);
    const second = await createDocument(backend.url, other.token, file, '三页再传.pdf');
    expect(second.hash).toBe(first.hash);
    expect(await waitForStatus(backend.url, other.token, second.id, [2])).toMatchObject({ pages: 3, preview: 1 });
    const shown = await api(backend.url, 'GET', '/api/v1/document', { query: { id: first.id } });
    expect(shown.body).toMatchObject({ pages: 3, preview: 3 });
    for (const n of [2, 3]) expect((await get(pagePath(n, '.svg', first.hash))).status, `page ${n}`).toBe(200);

    // A reconversion the admin asks for this document converts it with the settings of now.
    const asked = await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [first.id] } });
    expect(asked.status, asked.text).toBe(200);
    expect(await waitForStatus(backend.url, author.token, first.id, [2])).toMatchObject({ pages: 3, preview: 1 });
    expect((await get(pagePath(3, '.svg', first.hash))).status).toBe(403);
  });
});

describe("hostile paths answer 404, never a file outside the document's folder", () => {
  it.each([
    ['dot segments, encoded slashes', () => `/view/page/${doc.hash}/..%2F..%2F..%2F..%2F..%2F..%2F..%2Fmoredoc.db`],
    ['an encoded dot-dot before the manifest', () => `/view/page/${doc.hash}/%2e%2e%2fmanifest.json`],
    ['encoded backslashes', () => `/view/page/${doc.hash}/..%5C..%5Cmoredoc.db`],
    ['the manifest', () => `/view/page/${doc.hash}/manifest.json`],
    ['the stored text', () => `/view/page/${doc.hash}/text.txt`],
    ['a huge page number', () => `/view/page/${doc.hash}/99999999999.svg`],
    ['page 0', () => `/view/page/${doc.hash}/0.svg`],
    ['a negative page', () => `/view/page/${doc.hash}/-1.svg`],
    ['a NUL byte', () => `/view/page/${doc.hash}/1.svg%00.png`],
    ['no extension', () => `/view/page/${doc.hash}/1`],
    ['another extension', () => `/view/page/${doc.hash}/1.SVG.exe`],
    ['an upper-case hash', () => `/view/page/${doc.hash.toUpperCase()}/1.svg`],
    ['a hash with a non-hex character', () => `/view/page/${doc.hash.slice(0, 31)}g/1.svg`],
    ['a hash made of dot segments', () => `/view/page/..%2F..%2Fjwt-secret/1.svg`],
    ['a hash no document has', () => `/view/page/${'0'.repeat(32)}/1.svg`],
    ['a cover hash of dot segments', () => '/view/cover/..%2F..%2Fmoredoc.db'],
    ['a cover hash followed by a path', () => `/view/cover/${doc.hash}%2F..%2Fmanifest.json`],
  ])('%s', async (_what, path) => {
    const res = await get(path(), { token: backend.adminToken });
    expect(res.status).toBe(404);
    expect(res.body.toString('latin1')).not.toMatch(/SQLite|"pages"|PRIVATE|<svg/);
  });

  it('answers a malformed hash as MOREDOC does (status 404, code 400)', async () => {
    const res = await get('/view/page/abc/1.svg');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ code: 400, message: 'hash值必须32位' });
  });
});

describe('through the gateway', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway(backend.url);
  });
  afterAll(() => gateway?.close());

  it('passes pages on with their encoding, type, validators and caching, and the rights decisions', async () => {
    const free = await get(pagePath(1, '.gzip.svg'), { base: gateway.url, headers: { 'accept-encoding': 'gzip' } });
    expect(free.status).toBe(200);
    expect(free.headers).toMatchObject({
      'content-type': 'image/svg+xml',
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=604800',
    });
    expect(free.headers.etag).toEqual(expect.any(String));
    expect(gunzipSync(free.body).toString('utf8')).toContain('<svg');
    expect((await get(pagePath(3), { base: gateway.url })).status).toBe(403);
    expect((await get(pagePath(3), { base: gateway.url, token: author.token })).status).toBe(200);
    expect((await get(pagePath(1, '.svg', '0'.repeat(32)), { base: gateway.url })).status).toBe(404);
  });

  it('shuts visitors out of pages and text on a site open to members only, not out of the settings (decision 097)', async () => {
    await backend.setConfig({ 'security.login_required': 'true' });
    try {
      expect((await get(pagePath(2), { base: gateway.url })).status).toBe(401);
      const settings = await api(gateway.url, 'GET', '/api/v1/settings');
      expect(settings.status).toBe(200);
      expect(settings.body.security).toMatchObject({ login_required: true });
      const text = await api(gateway.url, 'GET', '/api/v1/document', { query: { id: doc.id, with_all_content: true } });
      expect(text.status).toBe(200);
      expect(text.body.content ?? '').toBe('');
      expect(text.body.description).toBeUndefined();
      // Nor does the document's page, to a crawler as to a person: the login page first.
      const page = await get(documentPagePath({ id: doc.id, category_id: [1] })!, {
        base: gateway.url,
        headers: CRAWLER,
      });
      expect(page.status).toBe(302);
      expect(page.headers.location).toMatch(/^\/auth\/login\?redirect=/);
      expect(page.body.toString()).not.toContain('Page');
      expect((await get(pagePath(2), { base: gateway.url, token: stranger.token })).status).toBe(200);
    } finally {
      await backend.setConfig({ 'security.login_required': 'false' });
    }
  });

  it("reads the reader's session from the cookie the gateway keeps", async () => {
    const res = await fetch(`${gateway.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gateway.origin },
      body: JSON.stringify({ username: author.username, password: author.password }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^token=/);
    expect((await get(pagePath(3), { base: gateway.url, headers: { cookie } })).status).toBe(200);
  });
});
