import { describe, expect, it } from 'vitest';
import { api, login, registerMember, useBackend, withDatabase } from '../helpers/backend';
import pino from 'pino';
import { LogOnlySmsProvider } from '../../backend/platform/sms/log-only';
import { ageSmsLog, expireSmsCodes, lastSmsCode, lastSmsText } from '../helpers/sms';
import { withClockOff } from '../helpers/clock';

// SMS codes and the mobile-number flows (docs/api.md §6) with the log-only provider, over
// HTTP against the real backend. Codes are read from the sms_log table (tests/helpers/sms.ts).

const backend = useBackend({ env: { CONFIG_SMS_ENABLE: 'true' }, member: true });

let numberSeq = 0;
/** A fresh mainland number per call, distinct across test files running in parallel. */
const newMobile = () => `139${String(process.pid % 1000).padStart(3, '0')}${String(++numberSeq).padStart(5, '0')}`;
let ipSeq = 0;
/** A fresh client address per call (the backend reads the first X-Forwarded-For entry). */
const newIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

function sendCode(
  mobile: string,
  type: string,
  opts: { token?: string; ip?: string; url?: string; captcha?: Record<string, string> } = {},
) {
  return api(opts.url ?? backend.url, 'POST', '/api/v1/user/sms/code', {
    token: opts.token,
    headers: { 'x-forwarded-for': opts.ip ?? newIp() },
    body: { mobile, type, ...opts.captcha },
  });
}

/** Sends a code (a minute after the number's last one) and reads it back from the log. */
async function codeFor(mobile: string, type: string, token?: string): Promise<string> {
  await ageSmsLog(backend.dataDir, mobile, 61_000);
  const res = await sendCode(mobile, type, { token });
  expect(res.status, res.text).toBe(200);
  return lastSmsCode(backend.dataDir, mobile);
}

const registerByMobile = (body: Record<string, string>) =>
  api(backend.url, 'POST', '/api/v1/user/register/mobile', { body });
const loginByMobile = (body: Record<string, string>) => api(backend.url, 'POST', '/api/v1/user/login/mobile', { body });

/** A member registered with a number (no username given). */
async function mobileMember(password = 'phone-secret') {
  const mobile = newMobile();
  const res = await registerByMobile({ mobile, code: await codeFor(mobile, 'register'), password });
  expect(res.status, res.text).toBe(200);
  return { mobile, password, token: res.body.token as string, user: res.body.user };
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('SendSmsCode', () => {
  it('sends a six-digit code through the log-only provider and never answers it', async () => {
    const mobile = newMobile();
    const res = await sendCode(` +86 ${mobile.slice(0, 3)}-${mobile.slice(3, 7)}-${mobile.slice(7)} `, 'login');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ interval: 60 });
    const code = await lastSmsCode(backend.dataDir, mobile);
    expect(code).toMatch(/^\d{6}$/);
    expect(res.text).not.toContain(code);
    expect(await lastSmsText(backend.dataDir, mobile)).toBe(
      `您正在登录，验证码为 ${code}，5 分钟内有效。如非本人操作，请忽略本短信。`,
    );
    const stored = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('sms_code').selectAll().where('mobile', '=', mobile).executeTakeFirstOrThrow(),
    );
    expect(stored).toMatchObject({ purpose: 'login', attempts: 0, used_at: null });
    expect(String(stored.code_hash)).toMatch(/^[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(String(stored.code_hash)).not.toContain(code);
    expect(Date.parse(String(stored.expires_at)) - Date.parse(String(stored.created_at))).toBe(5 * 60 * 1000);
  });

  it.each([
    [{ mobile: '', type: 'login' }, 400, '请输入手机号码'],
    [{ mobile: '12812345678', type: 'login' }, 400, '请输入正确的中国大陆手机号码'],
    [{ mobile: '+1 415 555 0100', type: 'login' }, 400, '请输入正确的中国大陆手机号码'],
    [
      { mobile: '13812345678', type: 'upload' },
      400,
      '不支持的验证码用途（参数 type 应为 register、login、find_password、bind）',
    ],
  ])('refuses %j', async (body, status, message) => {
    const res = await api(backend.url, 'POST', '/api/v1/user/sms/code', { body });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ code: 3, error: message, message });
  });

  it('answers a registered and an unregistered number alike', async () => {
    const member = await mobileMember();
    await ageSmsLog(backend.dataDir, member.mobile, 61_000);
    const registered = await sendCode(member.mobile, 'login');
    const unknown = await sendCode(newMobile(), 'login');
    expect([registered.status, unknown.status]).toEqual([200, 200]);
    expect(registered.text).toBe(unknown.text);
    const forgot = await sendCode(newMobile(), 'find_password');
    expect(forgot.status).toBe(200);
  });

  it('refuses a second code to the same number within the interval (429, code 8)', async () => {
    const mobile = newMobile();
    expect((await sendCode(mobile, 'register')).status).toBe(200);
    const again = await sendCode(mobile, 'login');
    expect(again.status).toBe(429);
    expect(again.body.code).toBe(8);
    expect(again.body.message).toMatch(/^发送太频繁，请 (60|59) 秒后再试$/);
    await ageSmsLog(backend.dataDir, mobile, 61_000);
    expect((await sendCode(mobile, 'login')).status).toBe(200);
  });

  it('sends one code of ten asked for one number at once, the others wait their interval', async () => {
    const mobile = newMobile();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sendCode(mobile, 'login')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(429)]);
    const sent = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('sms_code').select('id').where('mobile', '=', mobile).execute(),
    );
    expect(sent).toHaveLength(1);
  });

  it('refuses the 11th code of a day to one number; messages older than 24 hours no longer count', async () => {
    const mobile = newMobile();
    for (let i = 0; i < 10; i += 1) {
      const res = await sendCode(mobile, 'login');
      expect(res.status, `message ${i + 1}: ${res.text}`).toBe(200);
      await ageSmsLog(backend.dataDir, mobile, 2 * 60_000);
    }
    const eleventh = await sendCode(mobile, 'login');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({ code: 8, message: '该手机号今日获取验证码的次数已达上限，请明天再试' });
    const count = await withDatabase(
      backend.dataDir,
      async (db) =>
        (
          await db
            .selectFrom('sms_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('mobile', '=', mobile)
            .executeTakeFirstOrThrow()
        ).n,
    );
    expect(count).toBe(10);
    await ageSmsLog(backend.dataDir, mobile, 24 * 60 * 60_000 - 19.5 * 60_000);
    // The oldest message is now 24 hours and 30 s old, the next 23 h 58.5 min: one more is allowed, not two.
    expect((await sendCode(mobile, 'login')).status).toBe(200);
    await ageSmsLog(backend.dataDir, mobile, 61_000);
    expect((await sendCode(mobile, 'login')).status).toBe(429);
  });

  it('limits the codes one client address may ask for in an hour', async () => {
    await backend.setConfig({ 'sms.ip_hourly_limit': '3' });
    try {
      const ip = newIp();
      for (let i = 0; i < 3; i += 1) expect((await sendCode(newMobile(), 'login', { ip })).status).toBe(200);
      const fourth = await sendCode(newMobile(), 'login', { ip });
      expect(fourth.status).toBe(429);
      expect(fourth.body.message).toBe('当前网络获取验证码的次数过多，请稍后再试');
      expect((await sendCode(newMobile(), 'login', { ip: newIp() })).status).toBe(200);
    } finally {
      await backend.setConfig({ 'sms.ip_hourly_limit': '20' });
    }
  });

  it('counts an IPv6 client by its /64', async () => {
    await backend.setConfig({ 'sms.ip_hourly_limit': '3' });
    try {
      // A /64 written in full before its low groups, and one written as a run of zero groups (::/64).
      for (const [inside, outside] of [
        [['2001:db8:5a:1::1', '2001:db8:5a:1::2', '2001:db8:5a:1:ffff::3', '2001:db8:5a:1::4'], '2001:db8:5a:2::1'],
        [['::5:1', '::5:2', '::6:0:3', '::1'], '0:0:0:1::1'],
      ] as const) {
        for (const ip of inside.slice(0, 3)) expect((await sendCode(newMobile(), 'login', { ip })).status).toBe(200);
        expect((await sendCode(newMobile(), 'login', { ip: inside[3] })).status).toBe(429);
        expect((await sendCode(newMobile(), 'login', { ip: outside })).status).toBe(200);
      }
    } finally {
      await backend.setConfig({ 'sms.ip_hourly_limit': '20' });
    }
  });

  it('limits the messages of the whole site in an hour', async () => {
    const stats = await backend.admin('GET', '/api/v1/user/sms/stats');
    await backend.setConfig({
      'sms.site_hourly_limit': String(Number(stats.body.site_last_hour ?? 0) + 1),
    });
    try {
      expect((await sendCode(newMobile(), 'login')).status).toBe(200);
      const next = await sendCode(newMobile(), 'login');
      expect(next.status).toBe(429);
      expect(next.body.message).toBe('短信发送繁忙，请稍后再试');
    } finally {
      await backend.setConfig({ 'sms.site_hourly_limit': '500' });
    }
  });

  it('sends register codes only while registration is open', async () => {
    const member = await mobileMember();
    await backend.setConfig({ 'security.enable_register': 'false' });
    try {
      const res = await sendCode(newMobile(), 'register');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('系统未开放注册');
      await ageSmsLog(backend.dataDir, member.mobile, 61_000);
      expect((await sendCode(member.mobile, 'login')).status).toBe(200);
    } finally {
      await backend.setConfig({ 'security.enable_register': 'true' });
    }
  });

  it('sends bind codes to logged-in members only, and not to their own number', async () => {
    expect((await sendCode(newMobile(), 'bind')).status).toBe(401);
    const member = await mobileMember();
    const own = await sendCode(member.mobile, 'bind', { token: member.token });
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('该手机号已绑定当前账号');
    expect((await sendCode(newMobile(), 'bind', { token: member.token })).status).toBe(200);
  });
});

describe('RegisterByMobile', () => {
  it('creates a member with the normalised number, a made-up name, the register credits; the number then signs in with the password', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'register');
    const res = await registerByMobile({ mobile: `+86${mobile}`, code, password: 'phone-secret' });
    expect(res.status, res.text).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({ mobile, credit_count: 10, register_ip: '127.0.0.1' });
    expect(res.body.user.username).toMatch(/^手机用户\d{6}$/);
    expect(res.body.user.password).toBeUndefined();
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: res.body.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({ type: 6, content: '通过手机号注册成为会员，获得 10 魔豆奖励' });
    expect(await login(backend.url, mobile, 'phone-secret')).toEqual(expect.any(String));
    expect(await login(backend.url, res.body.user.username, 'phone-secret')).toEqual(expect.any(String));
    const wrong = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: mobile, password: 'not-it' },
    });
    expect(wrong.body.message).toBe('用户名或密码错误');
  });

  it('takes a chosen username, checked like Register', async () => {
    const mobile = newMobile();
    const invalid = await registerByMobile({
      mobile,
      code: '123456',
      username: '13812345678',
      password: 'phone-secret',
    });
    expect(invalid.body.message).toBe('出于隐私保护，用户名不能是邮箱或手机号码');
    const taken = await registerByMobile({
      mobile,
      code: '123456',
      username: backend.member.username,
      password: 'phone-secret',
    });
    expect(taken.status).toBe(409);
    const username = `手机注册${numberSeq}`;
    const res = await registerByMobile({
      mobile,
      code: await codeFor(mobile, 'register'),
      username,
      password: 'phone-secret',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ username, mobile });
  });

  it('counts wrong codes: the fifth wrong try kills the code, even for the right one afterwards', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'register');
    for (let left = 4; left >= 1; left -= 1) {
      const res = await registerByMobile({ mobile, code: wrongCode(code), password: 'phone-secret' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`短信验证码错误，还可尝试 ${left} 次`);
    }
    const fifth = await registerByMobile({ mobile, code: wrongCode(code), password: 'phone-secret' });
    expect(fifth.body.message).toBe('短信验证码错误次数过多，请重新获取');
    const right = await registerByMobile({ mobile, code, password: 'phone-secret' });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe('短信验证码错误次数过多，请重新获取');
    const attempts = await withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('sms_code').select('attempts').where('mobile', '=', mobile).executeTakeFirstOrThrow())
          .attempts,
    );
    expect(attempts).toBe(5);
  });

  it('refuses a used code', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'register');
    expect((await registerByMobile({ mobile, code, password: 'phone-secret' })).status).toBe(200);
    const again = await registerByMobile({ mobile, code, username: `再来${numberSeq}`, password: 'phone-secret' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('短信验证码已使用，请重新获取');
  });

  it('refuses an expired code', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'register');
    await expireSmsCodes(backend.dataDir, mobile);
    const res = await registerByMobile({ mobile, code, password: 'phone-secret' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('短信验证码已过期，请重新获取');
  });

  it('counts only the newest code, and only for the purpose it was sent for', async () => {
    const mobile = newMobile();
    const loginCode = await codeFor(mobile, 'login');
    const none = await registerByMobile({ mobile, code: loginCode, password: 'phone-secret' });
    expect(none.body.message).toBe('请先获取短信验证码');
    await ageSmsLog(backend.dataDir, mobile, 61_000);
    const first = await codeFor(mobile, 'register');
    await ageSmsLog(backend.dataDir, mobile, 61_000);
    const second = await codeFor(mobile, 'register');
    if (first !== second) {
      const old = await registerByMobile({ mobile, code: first, password: 'phone-secret' });
      expect(old.body.message).toBe('短信验证码错误，还可尝试 4 次');
    }
    expect((await registerByMobile({ mobile, code: second, password: 'phone-secret' })).status).toBe(200);
  });

  it('tells whoever holds the code that the number is registered already', async () => {
    const member = await mobileMember();
    const res = await registerByMobile({
      mobile: member.mobile,
      code: await codeFor(member.mobile, 'register'),
      password: 'phone-secret',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 6, message: '该手机号已注册，请直接登录' });
  });

  it('checks the password and that registration is open before spending the code', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'register');
    const short = await registerByMobile({ mobile, code, password: '123' });
    expect(short.body.message).toBe('密码长度必须在 6 到 128 个字符之间');
    await backend.setConfig({ 'security.enable_register': 'false' });
    try {
      expect((await registerByMobile({ mobile, code, password: 'phone-secret' })).body.message).toBe('系统未开放注册');
    } finally {
      await backend.setConfig({ 'security.enable_register': 'true' });
    }
    expect((await registerByMobile({ mobile, code, password: 'phone-secret' })).status).toBe(200);
  });
});

describe('LoginByMobile', () => {
  it('signs the member of the number in with a code and records the login', async () => {
    const member = await mobileMember();
    const code = await codeFor(member.mobile, 'login');
    const res = await loginByMobile({ mobile: member.mobile, code });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ id: member.user.id, mobile: member.mobile, last_login_ip: '127.0.0.1' });
    const me = await api(backend.url, 'GET', '/api/v1/user', { token: res.body.token });
    expect(me.body.id).toBe(member.user.id);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: res.body.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({ type: 5, content: '通过手机验证码登录' });
    const replay = await loginByMobile({ mobile: member.mobile, code });
    expect(replay.body.message).toBe('短信验证码已使用，请重新获取');
  });

  it('lets a code sign in once when ten requests bring it at the same time', async () => {
    const member = await mobileMember();
    const code = await codeFor(member.mobile, 'login');
    const answers = await Promise.all(Array.from({ length: 10 }, () => loginByMobile({ mobile: member.mobile, code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    expect(
      answers.filter((a) => a.status === 400).every((a) => a.body.message === '短信验证码已使用，请重新获取'),
    ).toBe(true);
  });

  it('registers a number without an account as it signs in, while registration is open', async () => {
    const mobile = newMobile();
    const wrong = await loginByMobile({ mobile, code: '000000' });
    expect(wrong.body.message).toBe('请先获取短信验证码');
    const res = await loginByMobile({ mobile, code: await codeFor(mobile, 'login') });
    expect(res.status, res.text).toBe(200);
    expect(res.body.registered).toBe(true);
    expect(res.body.user).toMatchObject({
      mobile,
      username: expect.stringMatching(/^手机用户\d{6}$/),
      register_ip: '127.0.0.1',
    });
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: res.body.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({
      type: 6,
      content: expect.stringMatching(/^通过手机号注册成为会员/),
    });
    const again = await loginByMobile({ mobile, code: await codeFor(mobile, 'login') });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(res.body.user.id);
    expect(again.body.registered).toBeUndefined();
  });

  it('refuses a number without an account before texting it, while registration is closed', async () => {
    const member = await mobileMember();
    const early = newMobile();
    const earlyCode = await codeFor(early, 'login');
    await backend.setConfig({ 'security.enable_register': 'false' });
    try {
      const mobile = newMobile();
      const refused = await sendCode(mobile, 'login');
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 5, message: '该手机号尚未注册，本站暂未开放注册' });
      const texted = await withDatabase(
        backend.dataDir,
        async (db) => (await db.selectFrom('sms_log').select('id').where('mobile', '=', mobile).execute()).length,
      );
      expect(texted).toBe(0);
      await ageSmsLog(backend.dataDir, member.mobile, 61_000);
      expect((await sendCode(member.mobile, 'login')).status).toBe(200);
      // A code sent while registration was open signs nobody up once it has closed.
      const late = await loginByMobile({ mobile: early, code: earlyCode });
      expect(late.status).toBe(404);
      expect(late.body.message).toBe('该手机号尚未注册，本站暂未开放注册');
    } finally {
      await backend.setConfig({ 'security.enable_register': 'true' });
    }
  });

  it('refuses malformed codes without counting them', async () => {
    const mobile = newMobile();
    await codeFor(mobile, 'login');
    for (const code of ['', '12345', '1234567', 'abcdef']) {
      expect((await loginByMobile({ mobile, code })).body.message).toBe('请输入 6 位数字短信验证码');
    }
    const attempts = await withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('sms_code').select('attempts').where('mobile', '=', mobile).executeTakeFirstOrThrow())
          .attempts,
    );
    expect(attempts).toBe(0);
  });
});

describe("codes and limits by the database's clock, whichever machine sends or checks", () => {
  it('signs in with a code a machine 10 minutes behind sent, and the next code still waits its interval', async () => {
    const member = await mobileMember();
    const ip = newIp();
    await ageSmsLog(backend.dataDir, member.mobile, 61_000);
    // Sent by a machine 10 minutes behind: its 5 minutes are not over before they start.
    const sent = await withClockOff(-10 * 60_000, () => sendCode(member.mobile, 'login', { ip }));
    expect(sent.status, sent.text).toBe(200);
    const code = await lastSmsCode(backend.dataDir, member.mobile);
    const again = await sendCode(member.mobile, 'login', { ip });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^发送太频繁，请 (60|59) 秒后再试$/);
    const res = await loginByMobile({ mobile: member.mobile, code });
    expect(res.status, res.text).toBe(200);
    // The admin screen's windows end at the database's now too: two hours on by this clock, the message is in its hour.
    const stats = await withClockOff(2 * 3600_000, () =>
      backend.admin('GET', '/api/v1/user/sms/stats', { query: { mobile: member.mobile, ip } }),
    );
    expect(stats.body).toMatchObject({ ip_last_hour: 1 });
  });
});

describe('FindPasswordByMobile', () => {
  it('sets a new password for the account of the number', async () => {
    const member = await mobileMember('old-password');
    const code = await codeFor(member.mobile, 'find_password');
    const res = await api(backend.url, 'PUT', '/api/v1/user/findpassword/mobile', {
      body: { mobile: member.mobile, code, password: 'new-password' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    const old = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: member.mobile, password: 'old-password' },
    });
    expect(old.status).toBe(400);
    expect(await login(backend.url, member.mobile, 'new-password')).toEqual(expect.any(String));
  });

  it('checks the new password first and tells the code holder when no account has the number', async () => {
    const mobile = newMobile();
    const code = await codeFor(mobile, 'find_password');
    const short = await api(backend.url, 'PUT', '/api/v1/user/findpassword/mobile', {
      body: { mobile, code, password: '1' },
    });
    expect(short.body.message).toBe('新密码长度必须在 6 到 128 个字符之间');
    const res = await api(backend.url, 'PUT', '/api/v1/user/findpassword/mobile', {
      body: { mobile, code, password: 'new-password' },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('该手机号未绑定任何账号');
  });
});

describe('BindMobile and the profile', () => {
  const bind = (token: string, body: Record<string, string>) =>
    api(backend.url, 'PUT', '/api/v1/user/mobile', { token, body });

  it("binds and changes a member's number with a code to the new number", async () => {
    const member = await registerMember(backend.url);
    const first = newMobile();
    expect((await bind(member.token, { mobile: first, code: await codeFor(first, 'bind', member.token) })).status).toBe(
      200,
    );
    expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.mobile).toBe(first);
    const second = newMobile();
    const res = await bind(member.token, { mobile: second, code: await codeFor(second, 'bind', member.token) });
    expect(res.status, res.text).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.mobile).toBe(second);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    expect(dynamics.body.dynamic[0].content).toBe(`绑定了手机号 ${second.slice(0, 3)}****${second.slice(-4)}`);
    expect(await login(backend.url, second, member.password)).toEqual(expect.any(String));
    expect(
      (await api(backend.url, 'POST', '/api/v1/user/login', { body: { username: first, password: member.password } }))
        .status,
    ).toBe(400);
  });

  it('refuses a number bound to another account (after the code) and anonymous callers', async () => {
    const owner = await mobileMember();
    const other = await registerMember(backend.url);
    const res = await bind(other.token, {
      mobile: owner.mobile,
      code: await codeFor(owner.mobile, 'bind', other.token),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('该手机号已绑定其他账号');
    expect((await bind('', { mobile: newMobile(), code: '123456' })).status).toBe(401);
  });

  it('lets members keep their number in UpdateUserProfile but change it only by code; admins may set or clear it', async () => {
    const member = await mobileMember();
    const profile = (token: string, fields: Record<string, unknown>) =>
      api(backend.url, 'PUT', '/api/v1/user/profile', {
        token,
        body: { id: member.user.id, signature: '你好', ...fields },
      });
    expect((await profile(member.token, { mobile: member.mobile })).status).toBe(200);
    expect((await profile(member.token, { mobile: `+86 ${member.mobile}` })).status).toBe(200);
    const changed = await profile(member.token, { mobile: newMobile() });
    expect(changed.status).toBe(400);
    expect(changed.body.message).toBe('手机号需通过短信验证码绑定');
    expect((await profile(member.token, { mobile: '' })).body.message).toBe('手机号需通过短信验证码绑定');

    const taken = await mobileMember();
    const conflict = await profile(backend.adminToken, { mobile: taken.mobile });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('该手机号已绑定其他账号');
    expect((await profile(backend.adminToken, { mobile: '010-12345678' })).body.message).toBe(
      '请输入正确的中国大陆手机号码',
    );
    const fresh = newMobile();
    expect((await profile(backend.adminToken, { mobile: `${fresh.slice(0, 3)} ${fresh.slice(3)}` })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.mobile).toBe(fresh);
    expect((await profile(backend.adminToken, { mobile: '' })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.mobile).toBeUndefined();
  });
});

describe('the SMS admin screen: ListSmsLog, GetSmsStats, SendTestSms', () => {
  it('lists messages newest first with masked numbers and without their text, filtered', async () => {
    const mobile = newMobile();
    await codeFor(mobile, 'register');
    const res = await backend.admin('GET', '/api/v1/user/sms/list', { query: { mobile, size: 5 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.sms_log[0]).toEqual({
      id: expect.any(Number),
      mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}`,
      purpose: 'register',
      provider: 'log',
      status: 1,
      ip: expect.stringMatching(/^198\.51\./),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const page = await backend.admin('GET', '/api/v1/user/sms/list', {
      query: { purpose: ['register', 'bind'], status: 1, provider: 'log', size: 3 },
    });
    expect(page.body.sms_log).toHaveLength(3);
    expect(page.body.total).toBeGreaterThan(3);
    expect(page.body.sms_log.every((row: { purpose: string }) => ['register', 'bind'].includes(row.purpose))).toBe(
      true,
    );
    const ids = page.body.sms_log.map((row: { id: number }) => row.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(page.text).not.toMatch(/验证码为/);
    const bad = await backend.admin('GET', '/api/v1/user/sms/list', { query: { mobile: '12345' } });
    expect(bad.body.message).toBe('手机号码格式不正确');
  });

  it('counts the messages against the limits, for the site, a number and an address', async () => {
    const mobile = newMobile();
    const ip = newIp();
    expect((await sendCode(mobile, 'login', { ip })).status).toBe(200);
    const res = await backend.admin('GET', '/api/v1/user/sms/stats', { query: { mobile, ip } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      enable: true,
      provider: 'log',
      interval: 60,
      mobile_last_day: 1,
      mobile_daily_limit: 10,
      ip_last_hour: 1,
      ip_hourly_limit: 20,
      site_hourly_limit: 500,
    });
    expect(res.body.site_last_hour).toBeGreaterThanOrEqual(1);
    expect(res.body.sent_last_day).toBeGreaterThanOrEqual(1);
  });

  it('sends a test message with the saved settings and logs it as test', async () => {
    const mobile = newMobile();
    const res = await backend.admin('POST', '/api/v1/config/sms/test', { body: { mobile } });
    expect(res.status, res.text).toBe(200);
    expect(await lastSmsText(backend.dataDir, mobile)).toMatch(/^这是一条测试短信，验证码为 \d{6}，5 分钟内有效。/);
    const log = await backend.admin('GET', '/api/v1/user/sms/list', { query: { mobile } });
    expect(log.body.sms_log[0]).toMatchObject({ purpose: 'test', status: 1 });
    const bad = await backend.admin('POST', '/api/v1/config/sms/test', { body: { mobile: '110' } });
    expect(bad.body.message).toBe('请输入正确的中国大陆手机号码');
  });
});

describe('the sms config category and the settings', () => {
  it('publishes only whether SMS is on, and the captcha switch', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/settings');
    expect(res.body.sms).toEqual({ enable: true });
    expect(res.body.security.enable_captcha_sms).toBeUndefined();
    const list = await backend.admin('GET', '/api/v1/config/list', { query: { category: 'sms' } });
    expect(list.body.config.map((c: { name: string }) => c.name)).toEqual([
      'enable',
      'provider',
      'sign_name',
      'sdk_app_id',
      'access_key_id',
      'access_key_secret',
      'region',
      'template_register',
      'template_login',
      'template_find_password',
      'template_bind',
      'interval',
      'mobile_daily_limit',
      'ip_hourly_limit',
      'site_hourly_limit',
    ]);
  });

  it.each([
    ['sms.interval', '0', '配置项【同一手机号发送间隔（秒）】必须在 1 到 3600 之间'],
    ['sms.mobile_daily_limit', '5000', '配置项【同一手机号每天最多发送】必须在 1 到 1000 之间'],
    ['sms.template_login', 'SMS 1', '配置项【登录验证码模板】只能包含英文字母、数字、下划线和短横线'],
    ['sms.provider', 'twilio', '配置项【短信服务商】的取值无效'],
    ['sms.region', 'Guangzhou', '配置项【腾讯云地域】格式应为 ap-guangzhou 这样的地域代码'],
  ])('refuses %s = %j', async (key, value, message) => {
    await expect(backend.setConfig({ [key]: value })).rejects.toThrow(message);
  });

  it('keeps the secret behind ****** in ListConfig', async () => {
    await backend.setConfig({ 'sms.access_key_secret': 'real-secret' });
    const list = await backend.admin('GET', '/api/v1/config/list', { query: { category: 'sms' } });
    expect(list.body.config.find((c: { name: string }) => c.name === 'access_key_secret').value).toBe('******');
    await backend.setConfig({ 'sms.access_key_secret': '' });
  });
});

describe('with SMS off (the default) or the captcha on', () => {
  const off = useBackend();
  const guarded = useBackend({
    env: { CONFIG_SMS_ENABLE: 'true', CONFIG_SECURITY_ENABLE_CAPTCHA_SMS: 'true' },
    build: { captchaGenerator: () => ({ text: '2468', image: 'data:image/svg+xml;base64,PHN2Zy8+' }) },
  });

  it('answers 503 to every flow while SMS is off and says so in the settings', async () => {
    const mobile = newMobile();
    const calls = [
      api(off.url, 'POST', '/api/v1/user/sms/code', { body: { mobile, type: 'login' } }),
      api(off.url, 'POST', '/api/v1/user/login/mobile', { body: { mobile, code: '123456' } }),
      api(off.url, 'POST', '/api/v1/user/register/mobile', {
        body: { mobile, code: '123456', password: 'phone-secret' },
      }),
      api(off.url, 'PUT', '/api/v1/user/findpassword/mobile', {
        body: { mobile, code: '123456', password: 'phone-secret' },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14, message: '短信服务未启用，请联系管理员' });
    }
    expect((await api(off.url, 'GET', '/api/v1/settings')).body.sms).toEqual({});
  });

  it('requires a fresh captcha for every code when security.enable_captcha_sms is on', async () => {
    const captcha = async () => {
      const res = await api(guarded.url, 'GET', '/api/v1/user/captcha', { query: { type: 'sms' } });
      expect(res.body).toMatchObject({ enable: true, type: 'digit' });
      return res.body.id as string;
    };
    const mobile = newMobile();
    const missing = await sendCode(mobile, 'login', { url: guarded.url });
    expect(missing.body.message).toBe('请输入验证码');
    const wrong = await sendCode(mobile, 'login', {
      url: guarded.url,
      captcha: { captcha_id: await captcha(), captcha: '1357' },
    });
    expect(wrong.body.message).toBe('验证码错误');
    const id = await captcha();
    expect(
      (await sendCode(mobile, 'login', { url: guarded.url, captcha: { captcha_id: id, captcha: '2468' } })).status,
    ).toBe(200);
    const reused = await sendCode(newMobile(), 'login', {
      url: guarded.url,
      captcha: { captcha_id: id, captcha: '2468' },
    });
    expect(reused.body.message).toBe('验证码错误');
    expect((await api(guarded.url, 'GET', '/api/v1/settings')).body.security.enable_captcha_sms).toBe(true);
  });

  it('says which settings a cloud provider lacks before spending the captcha', async () => {
    await guarded.setConfig({ 'sms.provider': 'tencent' });
    try {
      const res = await sendCode(newMobile(), 'login', { url: guarded.url });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('腾讯云短信尚未配置短信签名、SecretId、SecretKey、SdkAppId，请联系管理员');
    } finally {
      await guarded.setConfig({ 'sms.provider': 'log' });
    }
  });
});

describe('the log-only provider', () => {
  it('writes the message to the log as a warning, which the site shows at its default level', async () => {
    const lines: string[] = [];
    // The embedded backend logs from `warn` up when the site logs `info` (gateway/server.ts).
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const delivery = await new LogOnlySmsProvider(logger, '魔豆文库').send({
      mobile: '13800001234',
      templateId: 'T1',
      code: '123456',
      text: '您的验证码为 123456',
    });
    expect(delivery.content).toBe('【魔豆文库】您的验证码为 123456');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      msg: 'sms not sent (log-only provider)',
      content: '【魔豆文库】您的验证码为 123456',
      mobile: '138****1234',
    });
  });
});
