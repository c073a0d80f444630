import { describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';

// The per-address limits count an IPv6 client by its /64 (shared/address-key.ts), or by the prefix CLIENT_IPV6_PREFIX
// says: one subscriber holds a whole prefix and could otherwise pass any limit by rotating the bits after it. An IPv4-mapped address counts as its
// IPv4 address. Where an address is stored (search_record's ip), it is kept in full. The backend believes the test's
// X-Forwarded-For (BACKEND_TRUST_PROXY 127.0.0.1), so each test acts as several clients.

const SIGN_IN_LIMIT = 3;
const SEARCH_RECORD_LIMIT = 2;
/** Downloads a day from one client (download.times_every_ip), SMS codes an hour (sms.ip_hourly_limit). */
const DOWNLOADS_PER_ADDRESS = 2;
const SMS_CODES_PER_ADDRESS = 2;
/** Live captchas of one client (the real bound: CAPTCHA_LIMITS), so that a few requests reach it. */
const CAPTCHAS_PER_ADDRESS = 3;

const backend = useBackend({
  env: { SIGN_IN_LIMIT: String(SIGN_IN_LIMIT), SEARCH_RECORD_LIMIT: String(SEARCH_RECORD_LIMIT) },
});
// Providers that hand each subscriber a /56.
const by56 = useBackend({
  env: {
    SIGN_IN_LIMIT: String(SIGN_IN_LIMIT),
    SEARCH_RECORD_LIMIT: String(SEARCH_RECORD_LIMIT),
    CLIENT_IPV6_PREFIX: '56',
    CONFIG_DOWNLOAD_TIMES_EVERY_IP: String(DOWNLOADS_PER_ADDRESS),
    CONFIG_DOWNLOAD_TIMES_EVERY_DAY: '100',
    CONFIG_SMS_ENABLE: 'true',
    CONFIG_SMS_IP_HOURLY_LIMIT: String(SMS_CODES_PER_ADDRESS),
    CONFIG_SECURITY_ENABLE_CAPTCHA_COMMENT: 'true',
  },
  build: {
    captchaGenerator: () => ({ text: '4321', image: 'data:image/svg+xml;base64,PHN2Zy8+' }),
    captchaLimits: { total: 1000, perAddress: CAPTCHAS_PER_ADDRESS },
  },
});

/** A login with a wrong password from `address`: its status (429 when the sign-in limit refuses it). */
const loginFrom = async (address: string, target = backend) =>
  (
    await api(target.url, 'POST', '/api/v1/user/login', {
      headers: { 'x-forwarded-for': address },
      body: { username: 'admin', password: 'not-the-password' },
    })
  ).status;

describe('the sign-in limit', () => {
  it('reached from 2001:db8::1 also refuses 2001:db8::2, but not 2001:db8:0:1::1', async () => {
    for (let i = 0; i < SIGN_IN_LIMIT; i += 1) expect(await loginFrom('2001:db8::1')).not.toBe(429);
    expect(await loginFrom('2001:db8::1')).toBe(429);
    expect(await loginFrom('2001:db8::2')).toBe(429);
    expect(await loginFrom('2001:0db8:0000:0000:ffff:ffff:ffff:ffff')).toBe(429);
    expect(await loginFrom('2001:db8:0:1::1')).not.toBe(429);
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    for (let i = 0; i < SIGN_IN_LIMIT; i += 1) expect(await loginFrom('::ffff:198.51.100.31')).not.toBe(429);
    expect(await loginFrom('198.51.100.31')).toBe(429);
    expect(await loginFrom('198.51.100.32')).not.toBe(429);
  });
});

describe('SEARCH_RECORD_LIMIT', () => {
  it('records that many searches of a /64 a minute, each with its full address', async () => {
    const searchFrom = (address: string) =>
      api(backend.url, 'GET', '/api/v1/document/search', {
        query: { wd: '六十四位前缀' },
        headers: { 'x-forwarded-for': address },
      });
    for (const address of ['2001:db8:5::1', '2001:db8:5::2', '2001:db8:5::3', '2001:db8:5::4', '2001:db8:5:1::1'])
      expect((await searchFrom(address)).status).toBe(200);
    const recorded = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('search_record').select('ip').where('keywords', '=', '六十四位前缀').orderBy('id').execute(),
    );
    expect(recorded.map((row) => row.ip)).toEqual(['2001:db8:5::1', '2001:db8:5::2', '2001:db8:5:1::1']);
  });
});

describe('CLIENT_IPV6_PREFIX', () => {
  it('counts an IPv6 client by the prefix set: a /56 in the sign-in limit', async () => {
    for (let i = 0; i < SIGN_IN_LIMIT; i += 1) expect(await loginFrom('2001:db8:7:1200::1', by56)).not.toBe(429);
    expect(await loginFrom('2001:db8:7:1200::1', by56)).toBe(429);
    // Another /64 of the same /56: the same subscriber.
    expect(await loginFrom('2001:db8:7:12ff:ffff::1', by56)).toBe(429);
    expect(await loginFrom('2001:db8:7:1300::1', by56)).not.toBe(429);
  });

  it('counts the searches recorded a minute by it (SEARCH_RECORD_LIMIT), each with its full address', async () => {
    const searchFrom = (address: string) =>
      api(by56.url, 'GET', '/api/v1/document/search', {
        query: { wd: '五十六位前缀' },
        headers: { 'x-forwarded-for': address },
      });
    for (const address of ['2001:db8:8:100::1', '2001:db8:8:1ff::2', '2001:db8:8:180::3', '2001:db8:8:200::1'])
      expect((await searchFrom(address)).status).toBe(200);
    const recorded = await withDatabase(by56.dataDir, (db) =>
      db.selectFrom('search_record').select('ip').where('keywords', '=', '五十六位前缀').orderBy('id').execute(),
    );
    expect(recorded.map((row) => row.ip)).toEqual(['2001:db8:8:100::1', '2001:db8:8:1ff::2', '2001:db8:8:200::1']);
  });

  it('counts the rows a limit reads from the database by it: the feedback of a /56 an hour', async () => {
    const feedbackFrom = (address: string) =>
      api(by56.url, 'POST', '/api/v1/feedback', {
        body: { content: '前缀长度的反馈' },
        headers: { 'x-forwarded-for': address },
      });
    // 5 an hour per client (FEEDBACK_PER_HOUR), from five /64s of one /56.
    for (let i = 0; i < 5; i += 1) expect((await feedbackFrom(`2001:db8:9:ab0${i}::${i + 1}`)).status).toBe(200);
    const refused = await feedbackFrom('2001:db8:9:abff::9');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('提交太频繁了，每小时最多提交 5 条反馈，请稍后再试');
    expect((await feedbackFrom('2001:db8:9:ac00::1')).status).toBe(200);
  });

  it("counts a download's per-IP daily limit by it, keeping each full address", async () => {
    const owner = await registerMember(by56.url);
    const reader = await registerMember(by56.url);
    const doc = await insertDocument(by56.dataDir, { userId: owner.user.id, price: 0 });
    const downloadFrom = (address: string) =>
      api(by56.url, 'GET', '/api/v1/document/download', {
        token: reader.token,
        query: { id: doc.id },
        headers: { 'x-forwarded-for': address },
      });
    // Two /64s of one /56, then a third: the same client.
    expect((await downloadFrom('2001:db8:a:1100::1')).status).toBe(200);
    expect((await downloadFrom('2001:db8:a:11ff::2')).status).toBe(200);
    const limited = await downloadFrom('2001:db8:a:1180::3');
    expect(limited.status).toBe(403);
    expect(limited.body.message).toBe(`当前 IP 今日下载次数已达上限（${DOWNLOADS_PER_ADDRESS} 次），请明天再来`);
    expect((await downloadFrom('2001:db8:a:1200::1')).status).toBe(200);
    const recorded = await withDatabase(by56.dataDir, (db) =>
      db.selectFrom('download').select('ip').where('user_id', '=', reader.user.id).orderBy('id').execute(),
    );
    expect(recorded.map((row) => row.ip)).toEqual(['2001:db8:a:1100::1', '2001:db8:a:11ff::2', '2001:db8:a:1200::1']);
  });

  it("counts the live captchas a client holds by it: a /56 pushes out its own oldest, not another /56's", async () => {
    const captchaFrom = async (address: string) =>
      (
        await api(by56.url, 'GET', '/api/v1/user/captcha', {
          query: { type: 'comment' },
          headers: { 'x-forwarded-for': address },
        })
      ).body.id as string;
    const first = await captchaFrom('2001:db8:b:100::1');
    const elsewhere = await captchaFrom('2001:db8:b:200::1');
    // As many again from other /64s of the first one's /56.
    const more: string[] = [];
    for (let i = 0; i < CAPTCHAS_PER_ADDRESS; i += 1) more.push(await captchaFrom(`2001:db8:b:1${i}0::${i + 1}`));
    const live = await withDatabase(by56.dataDir, (db) =>
      db
        .selectFrom('captcha')
        .select('id')
        .where('id', 'in', [first, elsewhere, ...more])
        .execute(),
    );
    expect(live.map((row) => row.id).sort()).toEqual([elsewhere, ...more].sort());
  });

  it('counts the SMS codes a client asks for in an hour by it', async () => {
    let sent = 0;
    const codeFrom = (address: string) =>
      api(by56.url, 'POST', '/api/v1/user/sms/code', {
        headers: { 'x-forwarded-for': address },
        body: {
          mobile: `139${String(process.pid % 1000).padStart(3, '0')}${String(++sent).padStart(5, '0')}`,
          type: 'login',
        },
      });
    for (const address of ['2001:db8:c:4500::1', '2001:db8:c:45ff::2'])
      expect((await codeFrom(address)).status).toBe(200);
    const refused = await codeFrom('2001:db8:c:4580::3');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('当前网络获取验证码的次数过多，请稍后再试');
    expect((await codeFrom('2001:db8:c:4600::1')).status).toBe(200);
  });
});
