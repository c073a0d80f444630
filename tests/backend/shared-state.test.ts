import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../backend/db';
import { ConfigStore, SETTINGS_CHECK_MS } from '../../backend/platform/config-store';
import { api, login, setConfig, startBackend, TEST_ENGINE, type StartedBackend } from '../helpers/backend';
import { mailSettings, startSmtpSink } from '../helpers/smtp';
import { databaseOf } from '../helpers/test-database';
import { withClockOff } from '../helpers/clock';
import { pngHead } from '../helpers/images';

// Two backends on one database, as several site or worker processes share one PostgreSQL
// database: what one of them hands out or counts, the other sees. On PostgreSQL the two have
// their own DATA_DIRs (nothing shared but the database); on SQLite they share DATA_DIR's file.
// Each backend keeps its own memory, so whatever passes here passes through the database.

const SIGN_IN_LIMIT = 10;
const CAPTCHA_ANSWER = '7315';

let first: StartedBackend;
let second: StartedBackend;

beforeAll(async () => {
  const env = { SIGN_IN_LIMIT: String(SIGN_IN_LIMIT), CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'true' };
  const build = { captchaGenerator: () => ({ text: CAPTCHA_ANSWER, image: 'data:image/svg+xml;base64,PHN2Zy8+' }) };
  first = await startBackend({ env, build });
  second =
    TEST_ENGINE === 'postgres'
      ? await startBackend({ env: { ...env, DATABASE_URL: databaseOf(first.dataDir)! }, build })
      : await startBackend({ env, build, dataDir: first.dataDir });
});

afterAll(async () => {
  await second?.close({ keepData: TEST_ENGINE === 'sqlite' });
  await first?.close();
});

const backends = () => [first, second];

describe('two backends on one database', () => {
  it('hold the sign-in limit together: of 40 logins from one address through both, 10 are tried', async () => {
    const client = { 'x-forwarded-for': '198.51.100.40' };
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api(backends()[i % 2]!.url, 'POST', '/api/v1/user/login', {
          headers: client,
          body: { username: 'admin', password: first.adminPassword },
        }),
      ),
    );
    const tried = answers.filter((res) => res.status !== 429);
    expect(tried.length).toBe(SIGN_IN_LIMIT);
    expect(tried.every((res) => res.status === 200)).toBe(true);
    const refused = answers.filter((res) => res.status === 429);
    const wait = Number(refused[0]!.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(refused[0]!.body).toMatchObject({ code: 8, message: `操作过于频繁，请 ${wait} 秒后再试` });
    // Both refused some: neither counted only its own.
    expect(
      [0, 1].map((side) => answers.filter((res, i) => i % 2 === side && res.status === 429).length).every((n) => n > 0),
    ).toBe(true);
    // Another address, and another endpoint of the same address, have their own counts.
    const other = await api(second.url, 'POST', '/api/v1/user/login', {
      headers: { 'x-forwarded-for': '198.51.100.41' },
      body: { username: 'admin', password: first.adminPassword },
    });
    expect(other.status).toBe(200);
  });

  it("hold the sign-in limit's minute by the database's clock, whatever each machine's says", async () => {
    const MINUTE_MS = 60_000;
    const tryLogin = (client: string) =>
      api(first.url, 'POST', '/api/v1/user/login', {
        headers: { 'x-forwarded-for': client },
        body: { username: 'admin', password: 'not-the-password' },
      });
    const tries = async (client: string) => {
      for (let i = 0; i < SIGN_IN_LIMIT; i += 1) expect((await tryLogin(client)).status).not.toBe(429);
    };
    // The minute's tries on time, the next through a machine 10 minutes ahead.
    await tries('198.51.100.43');
    const ahead = await withClockOff(10 * MINUTE_MS, () => tryLogin('198.51.100.43'));
    expect(ahead.status).toBe(429);
    expect(Number(ahead.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The minute's tries through a machine 10 minutes behind, the next on time.
    await withClockOff(-10 * MINUTE_MS, () => tries('198.51.100.44'));
    const onTime = await tryLogin('198.51.100.44');
    expect(onTime.status).toBe(429);
    expect(Number(onTime.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('hold the sign-in limit on a password change too: a session guesses the old password 10 times a minute', async () => {
    const token = await login(first.url, 'admin', first.adminPassword);
    const client = { 'x-forwarded-for': '198.51.100.42' };
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api(backends()[i % 2]!.url, 'PUT', '/api/v1/user/password', {
          token,
          headers: client,
          body: { old_password: `guess-${i}`, new_password: 'taken-over-1' },
        }),
      ),
    );
    const tried = answers.filter((res) => res.status !== 429);
    expect(tried.length).toBe(SIGN_IN_LIMIT);
    expect(tried.every((res) => res.status === 400)).toBe(true);
    // So is binding a number, where SMS codes are tried.
    const binds = await Promise.all(
      Array.from({ length: 12 }, () =>
        api(first.url, 'PUT', '/api/v1/user/mobile', {
          token,
          headers: client,
          body: { mobile: '13800138000', code: '123456' },
        }),
      ),
    );
    expect(binds.filter((res) => res.status === 429).length).toBe(12 - SIGN_IN_LIMIT);
  });

  it("accept each other's login tokens", async () => {
    const token = await login(first.url, 'admin', first.adminPassword);
    const me = await api(second.url, 'GET', '/api/v1/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('admin');
  });

  it('check a captcha the other handed out, once', async () => {
    const captcha = await api(first.url, 'GET', '/api/v1/user/captcha', { query: { type: 'register' } });
    expect(captcha.body.id).toBeTruthy();
    const body = {
      username: 'shared-captcha',
      password: 'secret-1',
      captcha_id: captcha.body.id,
      captcha: CAPTCHA_ANSWER,
    };
    const registered = await api(second.url, 'POST', '/api/v1/user/register', { body });
    expect(registered.status).toBe(200);
    const again = await api(first.url, 'POST', '/api/v1/user/register', {
      body: { ...body, username: 'shared-captcha-2' },
    });
    expect(again.body.message).toBe('验证码错误');
  });

  it("hold a captcha its 10 minutes by the database's clock, whichever of them is 11 minutes off", async () => {
    const OFF_MS = 11 * 60_000;
    const handOut = async () =>
      (await api(first.url, 'GET', '/api/v1/user/captcha', { query: { type: 'register' } })).body.id as string;
    const register = (username: string, captchaId: string) =>
      api(second.url, 'POST', '/api/v1/user/register', {
        body: { username, password: 'secret-1', captcha_id: captchaId, captcha: CAPTCHA_ANSWER },
      });
    // Handed out by a machine whose clock is behind, checked by one on time.
    const early = await withClockOff(-OFF_MS, handOut);
    const registered = await register('clock-behind', early);
    expect(registered.status, registered.text).toBe(200);
    // Handed out on time, checked by a machine whose clock is ahead.
    const onTime = await handOut();
    const checked = await withClockOff(OFF_MS, () => register('clock-ahead', onTime));
    expect(checked.status, checked.text).toBe(200);
  });

  it('mail one reset link and one register code a minute to an address, however many ask through both at once', async () => {
    const smtp = await startSmtpSink();
    try {
      const token = await login(first.url, 'admin', first.adminPassword);
      // Saved through both: each then reads the settings at once (on SQLite the other compares them once a second).
      const configure = (values: Record<string, string>) =>
        Promise.all(backends().map((backend) => setConfig(backend.url, token, values)));
      await configure({
        ...mailSettings(smtp),
        'system.domain': 'https://docs.example.com',
      });
      const captcha = async (type: string) => ({
        captcha_id: (await api(first.url, 'GET', '/api/v1/user/captcha', { query: { type } })).body.id as string,
        captcha: CAPTCHA_ANSWER,
      });
      const member = await api(first.url, 'POST', '/api/v1/user/register', {
        body: {
          username: 'asked-often',
          password: 'secret-1',
          email: 'asked-often@example.com',
          ...(await captcha('register')),
        },
      });
      expect(member.status).toBe(200);
      await configure({ 'security.enable_verify_register_email': 'true' });
      // Each from its own client address, with its own captcha: the per-address limits are not what holds here.
      const askedAtOnce = async (path: string, captchaType: string, email: string) => {
        const captchas = await Promise.all(Array.from({ length: 8 }, () => captcha(captchaType)));
        return Promise.all(
          captchas.map((answer, i) =>
            api(backends()[i % 2]!.url, 'POST', path, {
              headers: { 'x-forwarded-for': `198.51.100.${60 + i}` },
              body: { email, ...answer },
            }),
          ),
        );
      };
      const resets = await askedAtOnce('/api/v1/user/findpassword/stepone', 'find_password', 'asked-often@example.com');
      expect(resets.filter((res) => res.status === 200)).toHaveLength(1);
      expect(new Set(resets.filter((res) => res.status !== 200).map((res) => res.body.message))).toEqual(
        new Set(['找回密码的邮件刚刚已发送，请查收邮箱（也请看看垃圾邮件）；1 分钟后才能再次发送']),
      );
      const codes = await askedAtOnce('/api/v1/user/email/code', 'register', 'new-member@example.com');
      expect(codes.filter((res) => res.status === 200)).toHaveLength(1);
      expect(new Set(codes.filter((res) => res.status !== 200).map((res) => res.body.message))).toEqual(
        new Set(['发送太频繁，请稍后再试']),
      );
      expect(smtp.mails.map((mail) => mail.to)).toEqual([['asked-often@example.com'], ['new-member@example.com']]);
    } finally {
      await smtp.close();
    }
  });

  it('keep five feedbacks an hour from one member, however many are sent through both at once', async () => {
    const admin = await login(first.url, 'admin', first.adminPassword);
    const added = await api(first.url, 'POST', '/api/v1/user', {
      token: admin,
      body: { username: 'feedback-often', password: 'secret-1', group_id: [2] },
    });
    expect(added.status, added.text).toBe(200);
    const token = await login(second.url, 'feedback-often', 'secret-1');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(backends()[i % 2]!.url, 'POST', '/api/v1/feedback', {
          token,
          headers: { 'x-forwarded-for': '198.51.100.80' },
          body: { content: `第 ${i + 1} 条意见：页面打开太慢了` },
        }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(5);
    expect(
      new Set(answers.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.body.message}`)),
    ).toEqual(new Set(['429 提交太频繁了，每小时最多提交 5 条反馈，请稍后再试']));
  });

  it("keep a visitor's ten screenshots an hour from one address, however many are uploaded through both at once", async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(pngHead(300 + i))]), 'screen.png');
        const res = await fetch(`${backends()[i % 2]!.url}/api/v1/upload/feedback`, {
          method: 'POST',
          body: form,
          headers: { 'x-forwarded-for': '198.51.100.90' },
        });
        return { status: res.status, body: (await res.json()) as { message: string } };
      }),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(10);
    expect(
      new Set(answers.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.body.message}`)),
    ).toEqual(new Set(['429 上传太频繁了，每小时最多上传 10 张图片，请稍后再试']));
  });

  it(`see a setting changed through the other within ${SETTINGS_CHECK_MS} ms (plus a request)`, async () => {
    const sitename = async (backend: StartedBackend) =>
      (await api(backend.url, 'GET', '/api/v1/settings')).body.system.sitename as string;
    const before = await sitename(second);
    const token = await login(first.url, 'admin', first.adminPassword);
    await setConfig(first.url, token, { 'system.sitename': `${before}（改名）` });
    const changedAt = Date.now();
    expect(await sitename(first)).toBe(`${before}（改名）`);
    let seen = await sitename(second);
    while (seen === before && Date.now() - changedAt < SETTINGS_CHECK_MS * 10) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await sitename(second);
    }
    const latency = Date.now() - changedAt;
    expect(seen).toBe(`${before}（改名）`);
    // The bound plus time for the requests themselves on a loaded machine.
    expect(latency).toBeLessThan(SETTINGS_CHECK_MS + 2000);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'answer the first request after a change made through the other with it, however long they stayed idle',
    async () => {
      const vipOpen = async (backend: StartedBackend) =>
        (await api(backend.url, 'GET', '/api/v1/settings')).body.vip.enable === true;
      const token = await login(first.url, 'admin', first.adminPassword);
      const before = await vipOpen(second);
      await setConfig(first.url, token, { 'vip.enable': String(!before) });
      // Longer than the comparison interval, with no request to the second backend meanwhile.
      await new Promise((resolve) => setTimeout(resolve, SETTINGS_CHECK_MS * 3));
      expect(await vipOpen(second)).toBe(!before);
      await setConfig(first.url, token, { 'vip.enable': String(before) });
    },
  );

  it(`list a language added through the other in their settings within ${SETTINGS_CHECK_MS} ms (plus a request)`, async () => {
    const codes = async (backend: StartedBackend) =>
      ((await api(backend.url, 'GET', '/api/v1/settings')).body.language as { code: string }[]).map((l) => l.code);
    expect(await codes(second)).not.toContain('shared-language');
    const token = await login(first.url, 'admin', first.adminPassword);
    const created = await api(first.url, 'POST', '/api/v1/language', {
      token,
      body: { language: '共享行业', code: 'shared-language', enable: true },
    });
    expect(created.status, created.text).toBe(200);
    const changedAt = Date.now();
    expect(await codes(first)).toContain('shared-language');
    let seen = await codes(second);
    while (!seen.includes('shared-language') && Date.now() - changedAt < SETTINGS_CHECK_MS * 10) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await codes(second);
    }
    expect(seen).toContain('shared-language');
    expect(Date.now() - changedAt).toBeLessThan(SETTINGS_CHECK_MS + 2000);
  });
});

describe('the settings cache', () => {
  it('answers a caller inside a SQLite transaction from memory, even when due for a comparison', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-settings-'));
    const { db } = await openDatabase(dataDir);
    try {
      // Due at every call: a query here would wait for the connection the transaction holds.
      const settings = new ConfigStore(db, 0);
      await settings.snapshot();
      const inside = db.transaction().execute(async (trx) => {
        await trx.selectFrom('config').select('id').execute();
        return settings.snapshot();
      });
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise((resolve) => (timer = setTimeout(() => resolve('stuck'), 5000)));
      expect(await Promise.race([inside, stuck])).not.toBe('stuck');
      clearTimeout(timer);
    } finally {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
