import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';
import { pngHead } from '../helpers/images';
import { mailSettings, startSmtpSink, type SmtpSink } from '../helpers/smtp';
import { databaseOf, TEST_ENGINE } from '../helpers/test-database';

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

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp.close());

// Registered after the sink's hooks: hooks run as a stack, so the backends close first.
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

/** A visitor's feedback screenshot (10 an hour per client) from `address`, told apart by `seed`: its status. */
const screenshotFrom = async (address: string, seed: number) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pngHead(seed))]), 'screen.png');
  const res = await fetch(`${by56.url}/api/v1/upload/feedback`, {
    method: 'POST',
    body: form,
    headers: { 'x-forwarded-for': address },
  });
  await res.arrayBuffer();
  return res.status;
};

/** Runs `work` while by56 mails register codes (to the sink); registration needs none outside it. */
async function withVerifiedRegistration(work: () => Promise<void>) {
  await by56.setConfig({ ...mailSettings(smtp), 'security.enable_verify_register_email': 'true' });
  try {
    await work();
  } finally {
    await by56.setConfig({ 'security.enable_verify_register_email': 'false' });
  }
}

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

  it("counts a visitor's feedback screenshots an hour by it", async () => {
    // Ten an hour (ANONYMOUS_UPLOADS_PER_HOUR), from ten /64s of one /56.
    for (let i = 0; i < 10; i += 1) expect(await screenshotFrom(`2001:db8:d:70${i}0::1`, 5600 + i)).toBe(200);
    expect(await screenshotFrom('2001:db8:d:70ff::1', 5620)).toBe(429);
    expect(await screenshotFrom('2001:db8:d:7100::1', 5621)).toBe(200);
  });

  it('counts the register codes mailed to a client in an hour by it', async () => {
    await withVerifiedRegistration(async () => {
      const send = (email: string, address: string) =>
        api(by56.url, 'POST', '/api/v1/user/email/code', { body: { email }, headers: { 'x-forwarded-for': address } });
      expect((await send('loop56-0@example.com', '2001:db8:d:3400::1')).status).toBe(200);
      // Nineteen more within the hour (20 an hour per client), each from another /64 of the /56.
      await withDatabase(by56.dataDir, async (db) => {
        const ts = new Date().toISOString();
        for (let i = 1; i < 20; i++)
          await db
            .insertInto('email_code')
            .values({
              email: `loop56-${i}@example.com`,
              code: '123456',
              type: 0,
              ip: `2001:db8:d:34${i.toString(16).padStart(2, '0')}::1`,
              created_at: ts,
              updated_at: ts,
            })
            .execute();
      });
      const over = await send('loop56-20@example.com', '2001:db8:d:34ff::2');
      expect(over.status).toBe(429);
      expect(over.body.message).toBe('当前网络获取邮箱验证码的次数过多，请一小时后再试');
      expect((await send('loop56-21@example.com', '2001:db8:d:3500::1')).status).toBe(200);
    });
  });
});

// Two requests of one client at once are serialised by an advisory lock on its address key, which the limits are
// counted under: the lock is the client's /56 too. Here the table a request writes is held by the test, so that the
// first request waits there with its locks taken; a second from another /64 of the /56 must then wait for the lock,
// not reach the table beside it. SQLite runs one transaction at a time: there is nothing to serialise.
describe.runIf(TEST_ENGINE === 'postgres')('CLIENT_IPV6_PREFIX in the locks of one client', () => {
  /** The sessions of the backend's database waiting for a lock: what they wait for, and on which statement. */
  const waiting = async (client: pg.Client) => {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ wait_event: string; query: string }>(
      `SELECT wait_event, query FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    return rows;
  };

  /** Runs `first`, then `second`, while `table` is held; answers their statuses once it is let go. */
  async function whileHeld(table: string, first: () => Promise<number>, second: () => Promise<number>) {
    const client = new pg.Client(databaseOf(by56.dataDir)!);
    await client.connect();
    const writes = (rows: { wait_event: string; query: string }[]) =>
      rows.filter((row) => row.wait_event === 'relation' && row.query.includes(`insert into "${table}"`)).length;
    try {
      await client.query('BEGIN');
      await client.query(`LOCK TABLE "${table}" IN EXCLUSIVE MODE`);
      const one = first();
      await vi.waitFor(async () => expect(writes(await waiting(client))).toBe(1), { timeout: 10_000, interval: 20 });
      const two = second();
      await vi.waitFor(
        async () => {
          const rows = await waiting(client);
          expect([writes(rows), rows.some((row) => row.wait_event === 'advisory')]).toEqual([1, true]);
        },
        { timeout: 10_000, interval: 20 },
      );
      await client.query('COMMIT');
      return await Promise.all([one, two]);
    } finally {
      await client.end();
    }
  }

  /** A member registered from `address` (each its own, away from the sign-in limit of the file's other members). */
  const memberFrom = async (address: string) => {
    const res = await api(by56.url, 'POST', '/api/v1/user/register', {
      body: { username: `lock56-${address.replaceAll('.', '-')}`, password: 'member-password' },
      headers: { 'x-forwarded-for': address },
    });
    expect(res.status, res.text).toBe(200);
    return { token: res.body.token as string, id: res.body.user.id as number };
  };

  it('a download waits for one of another /64 of its /56', async () => {
    const [readerA, readerB, ownerA, ownerB] = await Promise.all(
      ['198.51.100.61', '198.51.100.62', '198.51.100.63', '198.51.100.64'].map(memberFrom),
    );
    const docA = await insertDocument(by56.dataDir, { userId: ownerA!.id, price: 0 });
    const docB = await insertDocument(by56.dataDir, { userId: ownerB!.id, price: 0 });
    const downloadFrom = (token: string, id: number, address: string) => async () =>
      (
        await api(by56.url, 'GET', '/api/v1/document/download', {
          token,
          query: { id },
          headers: { 'x-forwarded-for': address },
        })
      ).status;
    // Other readers and owners: the second waits for no row the first holds.
    expect(
      await whileHeld(
        'download',
        downloadFrom(readerA!.token, docA.id, '2001:db8:d:2100::1'),
        downloadFrom(readerB!.token, docB.id, '2001:db8:d:21ff::1'),
      ),
    ).toEqual([200, 200]);
  });

  it("a visitor's screenshot waits for one of another /64 of its /56", async () => {
    expect(
      await whileHeld(
        'attachment',
        () => screenshotFrom('2001:db8:d:9100::1', 5630),
        () => screenshotFrom('2001:db8:d:91ff::1', 5631),
      ),
    ).toEqual([200, 200]);
  });

  it('a register code waits for one of another /64 of its /56', async () => {
    await withVerifiedRegistration(async () => {
      const send = (email: string, address: string) => async () =>
        (
          await api(by56.url, 'POST', '/api/v1/user/email/code', {
            body: { email },
            headers: { 'x-forwarded-for': address },
          })
        ).status;
      expect(
        await whileHeld(
          'email_code',
          send('lock56-a@example.com', '2001:db8:d:5600::1'),
          send('lock56-b@example.com', '2001:db8:d:56ff::1'),
        ),
      ).toEqual([200, 200]);
    });
  });
});
