import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  api,
  registerMember,
  startBackend,
  TEST_ENGINE,
  useBackend,
  withDatabase,
  type Member,
} from '../helpers/backend';
import { creditsOf, insertDocument, setCredits, type DocumentFixture } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';

// DocumentAPI.DownloadDocument / DownloadDocumentToBeReviewed, UserAPI.ListUserDownload and
// the signed `/download/<token>` link: who may download, in which order the refusals come,
// how credits move (never below zero, also under concurrent clicks), and what the link serves.

const backend = useBackend();

let ipCounter = 0;
/** Every test downloads from its own address, so that the per-IP daily limit stays its own. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const DAY_MS = 86_400_000;
const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');

async function download(documentId: number, opts: { token?: string; ip?: string; agreed?: number } = {}) {
  return api(backend.url, 'GET', '/api/v1/document/download', {
    token: opts.token,
    query: { id: documentId, ...(opts.agreed === undefined ? {} : { price: opts.agreed, check_price: true }) },
    headers: { 'x-forwarded-for': opts.ip ?? freshIp() },
  });
}

async function fetchLink(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(backend.url + url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function downloadsOf(userId: number) {
  return withDatabase(backend.dataDir, (db) =>
    db
      .selectFrom('download')
      .select(['document_id', 'is_pay', 'ip'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
  );
}

/** The member's latest dynamics, newest first, as [type, content]. */
async function latestDynamics(token: string, count: number): Promise<[number, string][]> {
  const res = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token });
  return (res.body.dynamic as { type: number; content: string }[]).slice(0, count).map((d) => [d.type, d.content]);
}

async function uploaderWithDocument(opts: {
  price: number;
  status?: number;
  title?: string;
  deletedAt?: string;
}): Promise<{ owner: Member; doc: DocumentFixture }> {
  const owner = await registerMember(backend.url);
  const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, ...opts });
  return { owner, doc };
}

describe('DownloadDocument for a member with credits', () => {
  it('moves the price to the uploader, records a paid download and answers a link to the original', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 3, title: '2024年度 报告（终稿）' });
    const member = await registerMember(backend.url);
    await setCredits(backend.dataDir, member.user.id, 5);
    const ownerBefore = await creditsOf(backend.dataDir, owner.user.id);

    const res = await download(doc.id, { token: member.token, ip: '10.9.0.1' });
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.url, backend.url);
    expect(url.pathname).toMatch(/^\/download\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      user_id: String(member.user.id),
      document_id: String(doc.id),
      filename: '2024年度 报告（终稿）.pdf',
    });

    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(2);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(ownerBefore + 3);
    expect(await downloadsOf(member.user.id)).toEqual([{ document_id: doc.id, is_pay: 1, ip: '10.9.0.1' }]);
    const count = await withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('document').select('download_count').where('id', '=', doc.id).executeTakeFirstOrThrow())
          .download_count,
    );
    expect(count).toBe(1);
    // Each side reads what the credits did: the buyer what it cost, the uploader what it earned.
    expect(await latestDynamics(member.token, 1)).toEqual([[4, '下载了文档《2024年度 报告（终稿）》，花费 3 魔豆']]);
    expect(await latestDynamics(owner.token, 1)).toEqual([[15, '文档《2024年度 报告（终稿）》被下载，获得 3 魔豆']]);

    const file = await fetchLink(res.body.url);
    expect(file.status).toBe(200);
    expect(md5(file.bytes)).toBe(doc.hash);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-length')).toBe(String(doc.bytes.length));
    expect(file.headers.get('accept-ranges')).toBe('bytes');
    expect(file.headers.get('etag')).toBe(`"${doc.hash}"`);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="2024_ _.pdf"; filename*=UTF-8''${encodeURIComponent('2024年度 报告（终稿）.pdf')}`,
    );
  });

  it('serves one byte range (206), a suffix range, and 416 past the end', async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    const member = await registerMember(backend.url);
    const { body } = await download(doc.id, { token: member.token });
    const part = await fetchLink(body.url, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${doc.bytes.length}`);
    expect(part.bytes.equals(doc.bytes.subarray(100, 200))).toBe(true);
    const tail = await fetchLink(body.url, { range: 'bytes=-50' });
    expect(tail.bytes.equals(doc.bytes.subarray(doc.bytes.length - 50))).toBe(true);
    const past = await fetchLink(body.url, { range: `bytes=${doc.bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${doc.bytes.length}`);
    const head = await fetch(backend.url + body.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(doc.bytes.length));
    expect((await fetchLink(body.url, { 'if-none-match': `"${doc.hash}"` })).status).toBe(304);
    const stale = await fetchLink(body.url, { range: 'bytes=0-9', 'if-range': '"another-version"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(doc.bytes.length);
  });

  it('lets the owner download a priced document free, and a buyer again free within free_download_duration', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 4 });
    await setCredits(backend.dataDir, owner.user.id, 0);
    expect((await download(doc.id, { token: owner.token })).status).toBe(200);
    expect(await downloadsOf(owner.user.id)).toEqual([expect.objectContaining({ is_pay: 0 })]);

    await backend.setConfig({ 'download.free_download_duration': '2' });
    const buyer = await registerMember(backend.url);
    await setCredits(backend.dataDir, buyer.user.id, 8);
    expect((await download(doc.id, { token: buyer.token })).status).toBe(200);
    expect((await download(doc.id, { token: buyer.token })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, buyer.user.id)).toBe(4);
    expect((await downloadsOf(buyer.user.id)).map((d) => d.is_pay)).toEqual([1, 0]);
    // Nothing moved the second time, nor when the owner downloaded: no credits said.
    expect((await latestDynamics(buyer.token, 2)).map(([, content]) => content)).toEqual([
      `下载了文档《${doc.title}》`,
      `下载了文档《${doc.title}》，花费 4 魔豆`,
    ]);
    expect((await latestDynamics(owner.token, 2)).map(([, content]) => content)).toEqual([
      `文档《${doc.title}》被下载，获得 4 魔豆`,
      `下载了文档《${doc.title}》`,
    ]);

    // A purchase older than the duration no longer counts: the next download pays again.
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('download')
        .set({ created_at: new Date(Date.now() - 3 * 86_400_000).toISOString() })
        .where('user_id', '=', buyer.user.id)
        .execute(),
    );
    expect((await download(doc.id, { token: buyer.token })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, buyer.user.id)).toBe(0);
    await backend.setConfig({ 'download.free_download_duration': '0' });
  });

  it('tells a buyer they bought the document (the button then reads 已购买), within free_download_duration', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 3 });
    const purchase = (token: string) =>
      api(backend.url, 'GET', '/api/v1/document/purchase', { token, query: { id: doc.id } });
    const buyer = await registerMember(backend.url);
    await setCredits(backend.dataDir, buyer.user.id, 3);
    expect((await purchase(buyer.token)).body).toEqual({});
    expect((await download(doc.id, { token: buyer.token })).status).toBe(200);
    expect((await purchase(buyer.token)).body).toEqual({ bought: true });
    // The owner and a free document are no purchase; visitors are not asked.
    expect((await purchase(owner.token)).body).toEqual({});
    expect((await api(backend.url, 'GET', '/api/v1/document/purchase', { query: { id: doc.id } })).status).toBe(401);
    expect(
      (await api(backend.url, 'GET', '/api/v1/document/purchase', { token: buyer.token, query: { id: 999_999 } }))
        .status,
    ).toBe(404);

    await backend.setConfig({ 'download.free_download_duration': '2' });
    try {
      await withDatabase(backend.dataDir, (db) =>
        db
          .updateTable('download')
          .set({ created_at: new Date(Date.now() - 3 * 86_400_000).toISOString() })
          .where('user_id', '=', buyer.user.id)
          .execute(),
      );
      expect((await purchase(buyer.token)).body).toEqual({});
    } finally {
      await backend.setConfig({ 'download.free_download_duration': '0' });
    }
  });
});

describe('VIP members', () => {
  it('download priced documents without spending credits, up to their own daily quota', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 9 });
    const vip = await registerMember(backend.url);
    await setCredits(backend.dataDir, vip.user.id, 0);
    const ownerBefore = await creditsOf(backend.dataDir, owner.user.id);
    const granted = await backend.admin('POST', '/api/v1/vip/grant', {
      body: { user_id: [vip.user.id], days: 30, reason: '测试下载' },
    });
    expect(granted.status).toBe(200);
    await backend.setConfig({
      'vip.free_download': 'true',
      'vip.times_every_day': '2',
      'download.times_every_day': '1',
    });
    try {
      expect((await download(doc.id, { token: vip.token })).status).toBe(200);
      expect((await download(doc.id, { token: vip.token })).status).toBe(200);
      const limited = await download(doc.id, { token: vip.token });
      expect(limited.status).toBe(403);
      expect(limited.body.message).toBe('您今日的下载次数已达上限（2 次），请明天再来');
      expect(await creditsOf(backend.dataDir, vip.user.id)).toBe(0);
      expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(ownerBefore);
      expect((await downloadsOf(vip.user.id)).map((d) => d.is_pay)).toEqual([0, 0]);

      // Without the benefit, the same member pays like anybody else.
      await backend.setConfig({
        'vip.free_download': 'false',
        'vip.times_every_day': '0',
        'download.times_every_day': '10',
      });
      const paying = await download(doc.id, { token: vip.token });
      expect(paying.status).toBe(403);
      expect(paying.body.message).toBe('魔豆不足，无法下载');
    } finally {
      await backend.setConfig({
        'vip.free_download': 'true',
        'vip.times_every_day': '50',
        'download.times_every_day': '10',
      });
    }
  });
});

describe('refusals, each in Chinese', () => {
  it('refuses guests unless guest downloads are on, and then priced documents', async () => {
    const { doc: priced } = await uploaderWithDocument({ price: 2 });
    const { doc: free } = await uploaderWithDocument({ price: 0 });
    const guest = await download(free.id);
    expect(guest.status).toBe(401);
    expect(guest.body.code).toBe(16);

    await backend.setConfig({ 'download.enable_guest_download': 'true' });
    try {
      const allowed = await download(free.id);
      expect(allowed.status).toBe(200);
      expect(allowed.body.url).toContain('user_id=0&');
      expect((await fetchLink(allowed.body.url)).status).toBe(200);
      const paid = await download(priced.id);
      expect(paid.status).toBe(403);
      expect(paid.body).toMatchObject({ code: 7, message: '付费文档，请先登录再下载' });
    } finally {
      await backend.setConfig({ 'download.enable_guest_download': 'false' });
    }
  });

  it('refuses guests on a site open to members only, guest downloads on or not (decision 097)', async () => {
    const { doc: free } = await uploaderWithDocument({ price: 0 });
    const member = await registerMember(backend.url);
    await backend.setConfig({ 'download.enable_guest_download': 'true', 'security.login_required': 'true' });
    try {
      const guest = await download(free.id);
      expect(guest.status).toBe(401);
      expect(guest.body).toMatchObject({ code: 16, message: '本站需登录后才能访问，请登录后阅读或下载' });
      expect((await download(free.id, { token: member.token })).status).toBe(200);
    } finally {
      await backend.setConfig({ 'download.enable_guest_download': 'false', 'security.login_required': 'false' });
    }
  });

  it('refuses a member barred from downloading, and one whose account is disabled', async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    for (const type of [4, 1]) {
      const member = await registerMember(backend.url);
      await backend.admin('POST', '/api/v1/punishment', {
        body: { user_id: [member.user.id], type: [type], enable: true },
      });
      const res = await download(doc.id, { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('您的账户已被禁止下载文档');
    }
  });

  it('applies the per-IP and the per-user daily limits', async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    await backend.setConfig({
      'download.times_every_ip': '2',
      'download.times_every_day': '3',
    });
    try {
      const a = await registerMember(backend.url);
      const b = await registerMember(backend.url);
      const shared = freshIp();
      expect((await download(doc.id, { token: a.token, ip: shared })).status).toBe(200);
      expect((await download(doc.id, { token: b.token, ip: shared })).status).toBe(200);
      const ipLimited = await download(doc.id, { token: a.token, ip: shared });
      expect(ipLimited.status).toBe(403);
      expect(ipLimited.body.message).toBe('当前 IP 今日下载次数已达上限（2 次），请明天再来');

      expect((await download(doc.id, { token: a.token })).status).toBe(200);
      expect((await download(doc.id, { token: a.token })).status).toBe(200);
      const userLimited = await download(doc.id, { token: a.token });
      expect(userLimited.status).toBe(403);
      expect(userLimited.body.message).toBe('您今日的下载次数已达上限（3 次），请明天再来');
      // Yesterday's downloads do not count.
      await withDatabase(backend.dataDir, (db) =>
        db
          .updateTable('download')
          .set({ created_at: new Date(Date.now() - 86_400_000 * 1.5).toISOString() })
          .where('user_id', '=', a.user.id)
          .execute(),
      );
      expect((await download(doc.id, { token: a.token })).status).toBe(200);
    } finally {
      await backend.setConfig({
        'download.times_every_ip': '10',
        'download.times_every_day': '10',
      });
    }
  });

  it('counts the per-IP limit of an IPv6 client by its /64, keeping each full address', async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    await backend.setConfig({ 'download.times_every_ip': '2' });
    try {
      const member = await registerMember(backend.url);
      expect((await download(doc.id, { token: member.token, ip: '2001:db8:d::1' })).status).toBe(200);
      expect((await download(doc.id, { token: member.token, ip: '2001:db8:d::2' })).status).toBe(200);
      const limited = await download(doc.id, { token: member.token, ip: '2001:db8:d::3' });
      expect(limited.status).toBe(403);
      expect(limited.body.message).toBe('当前 IP 今日下载次数已达上限（2 次），请明天再来');
      expect((await download(doc.id, { token: member.token, ip: '2001:db8:d:1::1' })).status).toBe(200);
      expect((await downloadsOf(member.user.id)).map((row) => row.ip)).toEqual([
        '2001:db8:d::1',
        '2001:db8:d::2',
        '2001:db8:d:1::1',
      ]);
    } finally {
      await backend.setConfig({ 'download.times_every_ip': '10' });
    }
  });

  it("counts the day of the daily limits by the database's clock, whatever the machine's says", async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    await backend.setConfig({
      'download.enable_guest_download': 'true',
      'download.times_every_ip': '1',
      'download.times_every_day': '1',
    });
    try {
      // A guest's download through a machine a day behind is stamped with the database's day:
      // the machine on time counts it.
      const ip = freshIp();
      expect((await withClockOff(-DAY_MS, () => download(doc.id, { ip }))).status).toBe(200);
      expect((await download(doc.id, { ip })).status).toBe(403);
      // One a day ahead starts the day when the database does: it counts it too.
      const ahead = await withClockOff(DAY_MS, () => download(doc.id, { ip }));
      expect(ahead.status).toBe(403);
      expect(ahead.body.message).toBe('当前 IP 今日下载次数已达上限（1 次），请明天再来');

      const member = await registerMember(backend.url);
      const before = await withDatabase(backend.dataDir, (db) => databaseNow(db));
      expect((await withClockOff(DAY_MS, () => download(doc.id, { token: member.token }))).status).toBe(200);
      const after = await withDatabase(backend.dataDir, (db) => databaseNow(db));
      const [row] = await withDatabase(backend.dataDir, (db) =>
        db.selectFrom('download').select('created_at').where('user_id', '=', member.user.id).execute(),
      );
      expect(Date.parse(row!.created_at)).toBeGreaterThanOrEqual(before.getTime());
      expect(Date.parse(row!.created_at)).toBeLessThanOrEqual(after.getTime());
      const again = await withClockOff(DAY_MS, () => download(doc.id, { token: member.token }));
      expect(again.status).toBe(403);
      expect(again.body.message).toBe('您今日的下载次数已达上限（1 次），请明天再来');
    } finally {
      await backend.setConfig({
        'download.enable_guest_download': 'false',
        'download.times_every_ip': '10',
        'download.times_every_day': '10',
      });
    }
  });

  it('refuses when the credits do not cover the price, and moves nothing', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 7 });
    const member = await registerMember(backend.url);
    await setCredits(backend.dataDir, member.user.id, 6);
    const ownerBefore = await creditsOf(backend.dataDir, owner.user.id);
    const res = await download(doc.id, { token: member.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('魔豆不足，无法下载');
    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(6);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(ownerBefore);
    expect(await downloadsOf(member.user.id)).toEqual([]);

    await backend.setConfig({ 'score.credit_name': '金币' });
    expect((await download(doc.id, { token: member.token })).body.message).toBe('金币不足，无法下载');
    await backend.setConfig({ 'score.credit_name': '魔豆' });
  });

  it('takes no more than the price the reader agreed to: a price raised since is said, nothing moves', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 2 });
    const member = await registerMember(backend.url);
    await setCredits(backend.dataDir, member.user.id, 50);
    const ownerBefore = await creditsOf(backend.dataDir, owner.user.id);
    // The uploader raises the price after the reader's page showed 2 (and 免费 to another reader).
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ price: 30 }).where('id', '=', doc.id).execute(),
    );
    for (const agreed of [2, 0]) {
      const res = await download(doc.id, { token: member.token, agreed });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 9, message: '该文档的下载价格现为 30 魔豆，请确认后再下载' });
    }
    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(50);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(ownerBefore);
    expect(await downloadsOf(member.user.id)).toEqual([]);
    // Agreed to the new price (or more), it is paid; MOREDOC's clients, which say none, pay it as before.
    expect((await download(doc.id, { token: member.token, agreed: 30 })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(20);
    const other = await registerMember(backend.url);
    await setCredits(backend.dataDir, other.user.id, 30);
    expect((await download(doc.id, { token: other.token })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, other.user.id)).toBe(0);
    // Free for the reader after all (bought within the period): no price to agree to.
    expect((await download(doc.id, { token: member.token, agreed: 0 })).status).toBe(200);
  });

  it('answers 404 for documents that cannot be downloaded', async () => {
    const member = await registerMember(backend.url);
    const { doc: disabled } = await uploaderWithDocument({ price: 0, status: 4 });
    const { doc: recycled } = await uploaderWithDocument({ price: 0, deletedAt: new Date().toISOString() });
    const { owner, doc: pending } = await uploaderWithDocument({ price: 0, status: 6 });
    for (const id of [disabled.id, recycled.id, pending.id, 987654, 0]) {
      const res = await download(id, { token: member.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('文档不存在');
    }
    expect((await download(pending.id, { token: owner.token })).status).toBe(200);

    const { doc: lost } = await uploaderWithDocument({ price: 0 });
    fs.rmSync(path.join(backend.dataDir, 'documents', ...lost.hash.slice(0, 5), `${lost.hash}.pdf`));
    const missing = await download(lost.id, { token: member.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('文档文件不存在，请联系管理员');
  });
});

describe('concurrent downloads', () => {
  it('with credits for one of two priced documents, exactly one succeeds and the balance ends at zero', async () => {
    const { owner: ownerA, doc: a } = await uploaderWithDocument({ price: 5 });
    const { owner: ownerB, doc: b } = await uploaderWithDocument({ price: 5 });
    const member = await registerMember(backend.url);
    await setCredits(backend.dataDir, member.user.id, 5);
    const before =
      (await creditsOf(backend.dataDir, ownerA.user.id)) + (await creditsOf(backend.dataDir, ownerB.user.id));
    const results = await Promise.all([a, b, a, b].map((doc) => download(doc.id, { token: member.token })));
    const statuses = results.map((r) => r.status).sort();
    // The winner's document may be downloaded twice (the second time free: bought); the other never.
    expect(statuses.filter((s) => s === 403).length).toBeGreaterThanOrEqual(2);
    expect(results.filter((r) => r.status === 403).every((r) => r.body.message === '魔豆不足，无法下载')).toBe(true);
    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(0);
    const after =
      (await creditsOf(backend.dataDir, ownerA.user.id)) + (await creditsOf(backend.dataDir, ownerB.user.id));
    expect(after - before).toBe(5);
    const records = await downloadsOf(member.user.id);
    expect(records.filter((r) => r.is_pay === 1)).toHaveLength(1);
    expect(new Set(records.map((r) => r.document_id)).size).toBe(1);
  });

  it('50 downloads at once through two backends on one database, on a balance of 1: one charge, the rest free', async () => {
    const env = { CONFIG_DOWNLOAD_TIMES_EVERY_DAY: '1000', CONFIG_DOWNLOAD_TIMES_EVERY_IP: '1000' };
    const first = await startBackend({ env });
    // On PostgreSQL a second backend with its own pool, as a second process has; SQLite is
    // one process's database (one backend serves it).
    const second = TEST_ENGINE === 'postgres' ? await startBackend({ env, dataDir: first.dataDir }) : first;
    try {
      const owner = await registerMember(first.url);
      const member = await registerMember(first.url);
      const doc = await insertDocument(first.dataDir, { userId: owner.user.id, price: 1 });
      await setCredits(first.dataDir, member.user.id, 1);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          api((i % 2 ? second : first).url, 'GET', '/api/v1/document/download', {
            token: member.token,
            query: { id: doc.id },
            headers: { 'x-forwarded-for': '10.50.0.1' },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      expect(await creditsOf(first.dataDir, member.user.id)).toBe(0);
      expect(await creditsOf(first.dataDir, owner.user.id)).toBe(owner.user.credit_count + 1);
      const records = await withDatabase(first.dataDir, (db) =>
        db.selectFrom('download').select('is_pay').where('user_id', '=', member.user.id).execute(),
      );
      expect(records).toHaveLength(50);
      expect(records.filter((r) => r.is_pay === 1)).toHaveLength(1);
    } finally {
      if (second !== first) await second.close({ keepData: true });
      await first.close();
    }
  });

  it('two clicks on one priced document charge once', async () => {
    const { doc } = await uploaderWithDocument({ price: 3 });
    const member = await registerMember(backend.url);
    await setCredits(backend.dataDir, member.user.id, 10);
    const results = await Promise.all([1, 2, 3].map(() => download(doc.id, { token: member.token })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await creditsOf(backend.dataDir, member.user.id)).toBe(7);
    expect((await downloadsOf(member.user.id)).map((d) => d.is_pay).sort()).toEqual([0, 0, 1]);
  });
});

describe('the /download/<token> link', () => {
  async function link(): Promise<{ url: string; doc: DocumentFixture; member: Member }> {
    const { doc } = await uploaderWithDocument({ price: 0, title: '合同范本' });
    const member = await registerMember(backend.url);
    const res = await download(doc.id, { token: member.token });
    return { url: res.body.url, doc, member };
  }

  const storedSecrets = () =>
    withDatabase(backend.dataDir, (db) => db.selectFrom('secret').select(['name', 'value']).execute());
  const secret = async () =>
    new TextEncoder().encode((await storedSecrets()).find((row) => row.name === 'download')!.value);

  it('is signed with its own secret, generated into the database (none in DATA_DIR)', async () => {
    await link();
    const stored = Object.fromEntries((await storedSecrets()).map((row) => [row.name, row.value]));
    expect(stored.download!.length).toBeGreaterThanOrEqual(32);
    expect(stored.download).not.toBe(stored.jwt);
    expect(fs.existsSync(path.join(backend.dataDir, 'download-secret'))).toBe(false);
  });

  it("refuses a tampered token, another user or document in the query, and a token signed with MOREDOC's default key", async () => {
    const { url, doc, member } = await link();
    const parsed = new URL(url, backend.url);
    const token = parsed.pathname.split('/')[2]!;
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const bad of [
      url.replace(token, tampered),
      url.replace(`user_id=${member.user.id}`, `user_id=${member.user.id + 1}`),
      url.replace(`document_id=${doc.id}`, `document_id=${doc.id + 1}`),
      url.replace(`document_id=${doc.id}`, ''),
    ]) {
      const res = await fetchLink(bad);
      expect(res.status).toBe(400);
      expect(res.bytes.toString()).toBe('下载链接已失效');
    }
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(`${member.user.id}.${doc.hash}.${doc.id}`)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('moredoc'));
    expect((await fetchLink(url.replace(token, forged))).status).toBe(400);
  });

  it('expires after download.url_duration seconds', async () => {
    const { url, doc, member } = await link();
    const token = new URL(url, backend.url).pathname.split('/')[2]!;
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(`${member.user.id}.${doc.hash}.${doc.id}`)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
      .sign(await secret());
    const res = await fetchLink(url.replace(token, expired));
    expect(res.status).toBe(400);
    expect(res.bytes.toString()).toBe('下载链接已失效');

    await backend.setConfig({ 'download.url_duration': '120' });
    const fresh = await link();
    const claims = JSON.parse(
      Buffer.from(new URL(fresh.url, backend.url).pathname.split('/')[2]!.split('.')[1]!, 'base64url').toString(),
    ) as { exp: number; jti: string };
    expect(claims.exp - Date.now() / 1000).toBeGreaterThan(110);
    expect(claims.exp - Date.now() / 1000).toBeLessThanOrEqual(120);
    expect(claims.jti).toBe(`${fresh.member.user.id}.${fresh.doc.hash}.${fresh.doc.id}`);
    await backend.setConfig({ 'download.url_duration': '60' });
  });

  it("lives its seconds by the database's clock, whichever machine made it and which serves it", async () => {
    const { doc } = await uploaderWithDocument({ price: 0 });
    await backend.setConfig({ 'download.enable_guest_download': 'true' });
    try {
      // Made through a machine 10 minutes behind, served by the one on time.
      const behind = await withClockOff(-10 * 60_000, () => download(doc.id));
      expect(behind.status, behind.text).toBe(200);
      expect((await fetchLink(behind.body.url as string)).status).toBe(200);
      // Made on time, served by a machine 10 minutes ahead.
      const onTime = await download(doc.id);
      expect((await withClockOff(10 * 60_000, () => fetchLink(onTime.body.url as string))).status).toBe(200);
    } finally {
      await backend.setConfig({ 'download.enable_guest_download': 'false' });
    }
  });

  it('uses download.secret_key once the admin sets one: earlier links stop working', async () => {
    const before = await link();
    await backend.setConfig({ 'download.secret_key': 'an-operator-chosen-download-key' });
    try {
      expect((await fetchLink(before.url)).status).toBe(400);
      const after = await link();
      expect((await fetchLink(after.url)).status).toBe(200);
      const token = new URL(after.url, backend.url).pathname.split('/')[2]!;
      const signed = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setJti(`${after.member.user.id}.${after.doc.hash}.${after.doc.id}`)
        .setExpirationTime('1m')
        .sign(new TextEncoder().encode('an-operator-chosen-download-key'));
      expect((await fetchLink(after.url.replace(token, signed))).status).toBe(200);
    } finally {
      await backend.setConfig({ 'download.secret_key': 'moredoc' });
    }
  });

  it('names the file after the document, whatever the filename parameter says', async () => {
    const { url } = await link();
    const res = await fetchLink(url.replace(/filename=[^&]*/, 'filename=evil.html'));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('合同范本.pdf')}`,
    );
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('DownloadDocumentToBeReviewed', () => {
  it('gives admins a free link to disabled, pending and rejected documents only', async () => {
    const { doc: pending } = await uploaderWithDocument({ price: 9, status: 6 });
    const { doc: published } = await uploaderWithDocument({ price: 9, status: 2 });
    const res = await backend.admin('GET', '/api/v1/document/download/bereviewed', { query: { id: pending.id } });
    expect(res.status).toBe(200);
    const file = await fetchLink(res.body.url);
    expect(md5(file.bytes)).toBe(pending.hash);
    expect(await downloadsOf(1)).toContainEqual(expect.objectContaining({ document_id: pending.id, is_pay: 0 }));
    const notUnderReview = await backend.admin('GET', '/api/v1/document/download/bereviewed', {
      query: { id: published.id },
    });
    expect(notUnderReview.status).toBe(404);
  });
});

describe('ListUserDownload', () => {
  it("lists the member's downloads newest first with the document's title, type, size and uuid", async () => {
    const { doc: first } = await uploaderWithDocument({ price: 0, title: '第一份' });
    const { doc: second } = await uploaderWithDocument({ price: 1, title: '第二份' });
    const member = await registerMember(backend.url);
    await download(first.id, { token: member.token });
    await download(second.id, { token: member.token });
    const list = await api(backend.url, 'GET', '/api/v1/user/download', {
      token: member.token,
      query: { page: 1, size: 10 },
    });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.download).toEqual([
      expect.objectContaining({
        document_id: second.id,
        title: '第二份',
        ext: '.pdf',
        is_pay: true,
        price: 1,
        size: second.bytes.length,
        document_uuid: second.uuid,
        pages: 3,
        score: 300,
      }),
      expect.objectContaining({ document_id: first.id, title: '第一份', user_id: member.user.id }),
    ]);
    expect(list.body.download[1].is_pay).toBeUndefined();
    expect(list.body.download[1].price).toBeUndefined(); // free: no credits
    const page2 = await api(backend.url, 'GET', '/api/v1/user/download', {
      token: member.token,
      query: { page: 2, size: 1 },
    });
    expect(page2.body.download.map((d: { document_id: number }) => d.document_id)).toEqual([first.id]);
    expect((await api(backend.url, 'GET', '/api/v1/user/download')).status).toBe(401);
  });

  it('says why each download cost what it did: paid, bought before, VIP, the uploader, priced 0, a review', async () => {
    const { owner, doc } = await uploaderWithDocument({ price: 4 });
    const { doc: freeDoc } = await uploaderWithDocument({ price: 0 });
    const { doc: pending } = await uploaderWithDocument({ price: 9, status: 6 });
    const listed = async (token?: string) => {
      const res = await api(backend.url, 'GET', '/api/v1/user/download', { token, query: { page: 1, size: 50 } });
      expect(res.status, res.text).toBe(200);
      return (res.body.download as Record<string, unknown>[])
        .filter((d) => [doc.id, freeDoc.id, pending.id].includes(d.document_id as number))
        .map(({ document_id, is_pay, price, reason }) => ({ document_id, is_pay, price, reason }));
    };

    const buyer = await registerMember(backend.url);
    await setCredits(backend.dataDir, buyer.user.id, 4);
    for (const id of [doc.id, doc.id, freeDoc.id])
      expect((await download(id, { token: buyer.token })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, buyer.user.id)).toBe(0);
    expect(await listed(buyer.token)).toEqual([
      { document_id: freeDoc.id, is_pay: undefined, price: undefined, reason: 'free' },
      { document_id: doc.id, is_pay: undefined, price: 4, reason: 'bought' },
      { document_id: doc.id, is_pay: true, price: 4, reason: 'paid' },
    ]);

    expect((await download(doc.id, { token: owner.token })).status).toBe(200);
    expect(await listed(owner.token)).toEqual([{ document_id: doc.id, is_pay: undefined, price: 4, reason: 'owner' }]);

    // What the membership spared: the price it would have cost.
    const vip = await registerMember(backend.url);
    await setCredits(backend.dataDir, vip.user.id, 0);
    expect(
      (await backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [vip.user.id], days: 30, reason: '测试' } }))
        .status,
    ).toBe(200);
    expect((await download(doc.id, { token: vip.token })).status).toBe(200);
    expect(await listed(vip.token)).toEqual([{ document_id: doc.id, is_pay: undefined, price: 4, reason: 'vip' }]);

    const review = await backend.admin('GET', '/api/v1/document/download/bereviewed', { query: { id: pending.id } });
    expect(review.status).toBe(200);
    expect(await listed(backend.adminToken)).toEqual([
      { document_id: pending.id, is_pay: undefined, price: 9, reason: 'review' },
    ]);
  });
});
