import { SignJWT, decodeJwt } from 'jose';
import { IPV6_PREFIX } from '../../shared/address-key';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  login,
  registerMember,
  setConfig,
  startBackend,
  useBackend,
  withDatabase,
  type StartedBackend,
} from '../helpers/backend';
import { freePort } from '../helpers/ports';
import { mailSettings, startSmtpSink, type SmtpSink } from '../helpers/smtp';
import {
  CAPTCHA_ATTEMPTS,
  CAPTCHA_BACKGROUND,
  CAPTCHA_INKS,
  CaptchaStore,
  mathQuestion,
} from '../../backend/platform/captcha';
import { withClockOff } from '../helpers/clock';

// UserAPI sign-up, sign-in, sign-out, captchas, password recovery and e-mail codes.

let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp.close());
// Registered after the sink's hooks: hooks run as a stack, so the backend closes first.
const backend = useBackend({ env: { CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com' } });

const enableMail = () => backend.setConfig(mailSettings(smtp));

describe('Register', () => {
  it('creates a member in the default group with the register credits and answers {token, user}', async () => {
    const res = await api(backend.url, 'POST', '/api/v1/user/register', {
      body: { username: '新会员01', password: 'secret-1', email: 'new01@example.com' },
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({
      username: '新会员01',
      email: 'new01@example.com',
      credit_count: 10,
      register_ip: '127.0.0.1',
    });
    expect(res.body.user.password).toBeUndefined();
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token: res.body.token });
    expect(groups.body.group.map((g: { id: number }) => g.id)).toEqual([2]);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: res.body.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({ type: 6 });
  });

  it.each([
    [{ username: 'ab', password: 'secret-1' }, '用户名长度必须在 3 到 32 个字符之间'],
    [{ username: 'a'.repeat(33), password: 'secret-1' }, '用户名长度必须在 3 到 32 个字符之间'],
    [{ username: 'me@example.com', password: 'secret-1' }, '出于隐私保护，用户名不能是邮箱或手机号码'],
    [{ username: '13812345678', password: 'secret-1' }, '出于隐私保护，用户名不能是邮箱或手机号码'],
    [{ username: 'with space', password: 'secret-1' }, '用户名不能包含空白或控制字符'],
    // A mobile number in another spelling: login reads it as the number (normalizeMainlandMobile).
    [{ username: '139-0013-9001', password: 'secret-1' }, '出于隐私保护，用户名不能是邮箱或手机号码'],
    [{ username: '+8613900139000', password: 'secret-1' }, '出于隐私保护，用户名不能是邮箱或手机号码'],
    [{ username: '008613900139002', password: 'secret-1' }, '出于隐私保护，用户名不能是邮箱或手机号码'],
    [
      { username: '138 0013 8000', password: 'secret-1' },
      '用户名不能包含空白或控制字符；出于隐私保护，用户名不能是邮箱或手机号码',
    ],
    [{ username: 'okname', password: '123' }, '密码长度必须在 6 到 128 个字符之间'],
    [{ username: 'okname', password: 'secret-1', email: 'not-an-email' }, '邮箱格式不正确'],
    [{}, '用户名长度必须在 3 到 32 个字符之间；密码长度必须在 6 到 128 个字符之间'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await api(backend.url, 'POST', '/api/v1/user/register', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 3, message });
  });

  it('answers 409 to a taken username (any case) or e-mail', async () => {
    await registerMember(backend.url, { username: 'TakenName', email: 'taken@example.com' });
    const name = await api(backend.url, 'POST', '/api/v1/user/register', {
      body: { username: 'takenname', password: 'secret-1' },
    });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe('用户名已存在');
    const email = await api(backend.url, 'POST', '/api/v1/user/register', {
      body: { username: 'other-name', password: 'secret-1', email: 'TAKEN@example.com' },
    });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe('邮箱已存在');
  });

  it('lets exactly one of several concurrent registrations of a name win', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        api(backend.url, 'POST', '/api/v1/user/register', { body: { username: 'racer', password: 'secret-1' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('is refused while registration is closed or the site is closed', async () => {
    await backend.setConfig({ 'security.enable_register': 'false' });
    const closed = await api(backend.url, 'POST', '/api/v1/user/register', {
      body: { username: 'late-comer', password: 'secret-1' },
    });
    expect(closed.body).toMatchObject({ code: 3, message: '系统未开放注册' });
    await backend.setConfig({
      'security.enable_register': 'true',
      'security.is_close': 'true',
    });
    const siteClosed = await api(backend.url, 'POST', '/api/v1/user/register', {
      body: { username: 'late-comer', password: 'secret-1' },
    });
    expect(siteClosed.body).toMatchObject({ code: 3, message: '网站已关闭，暂时不允许注册' });
    await backend.setConfig({ 'security.is_close': 'false' });
  });
});

describe('Login and Logout', () => {
  it('logs in by username and returns the user as it was before this login', async () => {
    const member = await registerMember(backend.url);
    const res = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: member.username, password: member.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(member.user.id);
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    // MOREDOC's claims, and ours: IssuedAtMs, iat in ms (a password change ends the sessions before it).
    expect(Object.keys(claims).sort()).toEqual(
      ['HaveAccess', 'IssuedAtMs', 'UUID', 'UserId', 'exp', 'iat', 'iss'].sort(),
    );
    expect(claims).toMatchObject({ UserId: member.user.id, iss: 'moredoc' });
    expect(claims.exp - claims.iat).toBe(365 * 86400);
    expect(Math.floor(claims.IssuedAtMs / 1000)).toBe(claims.iat);
  });

  it('logs in by the e-mail address, in any letter case, with the same refusals as a username', async () => {
    const email = `Reader${Date.now()}@Example.com`;
    const member = await registerMember(backend.url, { email });
    for (const username of [email, email.toLowerCase(), ` ${email.toUpperCase()} `]) {
      const res = await api(backend.url, 'POST', '/api/v1/user/login', {
        body: { username, password: member.password },
      });
      expect(res.status, username).toBe(200);
      expect(res.body.user.id).toBe(member.user.id);
    }
    const wrong = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: email, password: 'wrong-password' },
    });
    const unknown = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'nobody@example.com', password: member.password },
    });
    for (const res of [wrong, unknown])
      expect(res.body).toEqual({ error: '用户名或密码错误', code: 3, message: '用户名或密码错误' });
    const malformed = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'reader@', password: member.password },
    });
    expect(malformed.body).toMatchObject({ code: 3, message: '邮箱格式不正确' });
  });

  it('answers the same 400 for a wrong password and an unknown user', async () => {
    const wrong = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'admin', password: 'wrong-password' },
    });
    const unknown = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'nobody-here', password: 'wrong-password' },
    });
    for (const res of [wrong, unknown])
      expect(res.body).toEqual({ error: '用户名或密码错误', code: 3, message: '用户名或密码错误' });
    const short = await api(backend.url, 'POST', '/api/v1/user/login', { body: { username: 'admin', password: '1' } });
    expect(short.status).toBe(400);
  });

  it('blacklists the token on logout and always answers {}', async () => {
    const member = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/user/group', { token: member.token })).status).toBe(200);
    const out = await api(backend.url, 'DELETE', '/api/v1/user/logout', { token: member.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({});
    expect((await api(backend.url, 'GET', '/api/v1/user/group', { token: member.token })).status).toBe(401);
    expect((await api(backend.url, 'DELETE', '/api/v1/user/logout')).body).toEqual({});
    expect((await login(backend.url, member.username, member.password)).length).toBeGreaterThan(20);
  });
});

describe('a password change', () => {
  const signedIn = async (token: string) =>
    (await api(backend.url, 'GET', '/api/v1/user/group', { token })).status === 200;

  it("ends the member's other sessions and keeps the one that changed it", async () => {
    const member = await registerMember(backend.url);
    const elsewhere = await login(backend.url, member.username, member.password);
    const changed = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: member.token,
      body: { old_password: member.password, new_password: 'changed-password-1' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await signedIn(member.token)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    // A login right after the change (the same second, the same millisecond even) is a new session.
    expect(await signedIn(await login(backend.url, member.username, 'changed-password-1'))).toBe(true);
  });

  it("by an admin ends every session of the member, and none of the admin's", async () => {
    const member = await registerMember(backend.url);
    const elsewhere = await login(backend.url, member.username, member.password);
    const byPassword = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: backend.adminToken,
      body: { id: member.user.id, new_password: 'set-by-admin-1' },
    });
    expect(byPassword.status, byPassword.text).toBe(200);
    expect(await signedIn(member.token)).toBe(false);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(backend.adminToken)).toBe(true);

    const again = await login(backend.url, member.username, 'set-by-admin-1');
    const bySetUser = await api(backend.url, 'PUT', '/api/v1/user', {
      token: backend.adminToken,
      // 2: the members' group of a new site
      body: { id: member.user.id, password: 'set-by-admin-2', group_id: [2] },
    });
    expect(bySetUser.status, bySetUser.text).toBe(200);
    expect(await signedIn(again)).toBe(false);
    expect(await signedIn(backend.adminToken)).toBe(true);
  });
});

describe('GetUserCaptcha', () => {
  it('refuses unknown kinds', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'upload' } });
    expect(res.body).toMatchObject({ code: 3, message: '不支持的验证码类型' });
  });

  it('says when a captcha is not needed', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'login' } });
    expect(res.body).toEqual({ type: 'digit' });
  });

  it('renders a real SVG image when enabled', async () => {
    await backend.setConfig({
      'security.enable_captcha_comment': 'true',
      'captcha.type': 'math',
    });
    const res = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'comment' } });
    expect(res.body).toMatchObject({ enable: true, type: 'math' });
    expect(res.body.id).toMatch(/^[0-9a-f]{52}$/);
    expect(res.body.captcha).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(res.body.captcha.split(',')[1], 'base64').toString();
    expect(svg).toContain('<svg');
    // `a+b=?`: at least five glyphs, each a filled path
    expect(svg.match(/<path fill=/g)?.length).toBeGreaterThanOrEqual(5);
  });

  it('asks 算术 as a sum of two numbers from 1 to 20 with =?, its answer the sum', () => {
    const picks: [number, number][] = [];
    const pick = (values: number[]) => (min: number, max: number) => {
      picks.push([min, max]);
      return values.shift()!;
    };
    expect(mathQuestion(pick([7, 15]))).toEqual({ question: '7+15=?', answer: '22' });
    expect(picks).toEqual([
      [1, 21],
      [1, 21],
    ]);
    for (let i = 0; i < 50; i++) expect(mathQuestion().question).toMatch(/^([1-9]|1\d|20)\+([1-9]|1\d|20)=\?$/);
  });
});

describe('captchas asked for in a loop from one address', () => {
  // Small bounds (the real ones: CAPTCHA_LIMITS) so that a loop of a few hundred reaches them.
  const LIMITS = { total: 40, perAddress: 5 };
  const LOOP = 150;
  const LOGIN_IMAGE = { type: 'digit', length: 4, width: 120, height: 40 };
  let loopBackend: StartedBackend;
  beforeAll(async () => {
    loopBackend = await startBackend({
      env: { CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'true' },
      build: {
        captchaGenerator: () => ({ text: '4321', image: 'data:image/svg+xml;base64,PHN2Zy8+' }),
        captchaLimits: LIMITS,
      },
    });
  });
  afterAll(() => loopBackend.close());

  const captchaFor = async (address: string) =>
    (
      await api(loopBackend.url, 'GET', '/api/v1/user/captcha', {
        headers: { 'x-forwarded-for': address },
        query: { type: 'login' },
      })
    ).body.id as string;
  /** What a login with the right answer to captcha `id` (and a wrong password, which spends none) is told. */
  const answerWith = async (id: string) =>
    (
      await api(loopBackend.url, 'POST', '/api/v1/user/login', {
        body: { username: 'admin', password: 'not-the-password', captcha_id: id, captcha: '4321' },
      })
    ).body.message as string;

  it("pushes out the loop's own oldest captchas, not another address's", async () => {
    const others = await captchaFor('198.51.100.20');
    const loop: string[] = [];
    for (let i = 0; i < LOOP; i += 1) loop.push(await captchaFor('198.51.100.10'));
    // The other address's captcha is still answerable: its sign-in goes on to the password.
    expect(await answerWith(others)).toBe('用户名或密码错误');
    expect(await answerWith(loop.at(-1)!)).toBe('用户名或密码错误');
    expect(await answerWith(loop[0]!)).toBe('验证码错误');
    expect(await answerWith(loop.at(-1 - LIMITS.perAddress)!)).toBe('验证码错误');
  });

  it('keeps the newest made, in the order made, when several are made in one millisecond', async () => {
    // In process a loop makes several a millisecond: by expiry alone, a tie fell to the random rest
    // of the id, and the newer of the two could be the one dropped.
    const kept = await withDatabase(loopBackend.dataDir, async (db) => {
      const store = new CaptchaStore(db, () => ({ text: '1', image: '' }), LIMITS);
      const made: string[] = [];
      for (let i = 0; i < LOOP * 2; i += 1)
        made.push((await store.create(LOGIN_IMAGE, '192.0.2.77', IPV6_PREFIX.default)).id);
      const left = await db.selectFrom('captcha').select('id').where('id', 'in', made).execute();
      return { made, left: left.map((row) => row.id) };
    });
    expect(kept.left.sort()).toEqual(kept.made.slice(-LIMITS.perAddress).sort());
  });

  it('bounds an IPv6 loop by its /64: rotating the low 64 bits pushes out its own captchas only', async () => {
    const others = await captchaFor('2001:db8:c:1::1');
    const loop: string[] = [];
    for (let i = 0; i < LOOP; i += 1) loop.push(await captchaFor(`2001:db8:c::${(i + 1).toString(16)}`));
    expect(await answerWith(others)).toBe('用户名或密码错误');
    expect(await answerWith(loop.at(-1)!)).toBe('用户名或密码错误');
    expect(await answerWith(loop[0]!)).toBe('验证码错误');
  });

  it('keeps the table bounded in all however many addresses ask', async () => {
    const first = await captchaFor('203.0.113.1');
    for (let i = 0; i < LOOP; i += 1) await captchaFor(`203.0.113.${(i % 200) + 2}`);
    expect(await answerWith(first)).toBe('验证码错误');
  });
});

describe('with captchas on', () => {
  let captchaBackend: StartedBackend;
  beforeAll(async () => {
    captchaBackend = await startBackend({
      env: {
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'true',
        CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'true',
        CONFIG_SECURITY_ENABLE_CAPTCHA_FIND_PASSWORD: 'true',
      },
      build: { captchaGenerator: () => ({ text: '4321', image: 'data:image/svg+xml;base64,PHN2Zy8+' }) },
    });
  });
  afterAll(() => captchaBackend.close());

  const captcha = async (type: string) =>
    (await api(captchaBackend.url, 'GET', '/api/v1/user/captcha', { query: { type } })).body.id as string;

  it('requires the captcha, rejects a wrong answer and consumes a right one', async () => {
    const creds = { username: 'admin', password: captchaBackend.adminPassword };
    const missing = await api(captchaBackend.url, 'POST', '/api/v1/user/login', { body: creds });
    expect(missing.body.message).toBe('请输入验证码');
    const wrong = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { ...creds, captcha_id: await captcha('login'), captcha: '0000' },
    });
    expect(wrong.body.message).toBe('验证码错误');
    const id = await captcha('login');
    const ok = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { ...creds, captcha_id: id, captcha: '4321' },
    });
    expect(ok.status).toBe(200);
    const reused = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { ...creds, captcha_id: id, captcha: '4321' },
    });
    expect(reused.body.message).toBe('验证码错误');
  });

  it('keeps a right captcha through a few wrong passwords, never more', async () => {
    const wrongPassword = { username: 'admin', password: 'not-the-password' };
    const id = await captcha('login');
    for (let attempt = 1; attempt <= CAPTCHA_ATTEMPTS; attempt += 1) {
      const res = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
        body: { ...wrongPassword, captcha_id: id, captcha: '4321' },
      });
      expect(res.body.message, `attempt ${attempt}`).toBe('用户名或密码错误');
    }
    const spent = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'admin', password: captchaBackend.adminPassword, captcha_id: id, captcha: '4321' },
    });
    expect(spent.body.message).toBe('验证码错误');
  });

  it('lets the right password in with a captcha that a wrong password did not spend', async () => {
    const id = await captcha('login');
    await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'admin', password: 'not-the-password', captcha_id: id, captcha: '4321' },
    });
    const ok = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: { username: 'admin', password: captchaBackend.adminPassword, captcha_id: id, captcha: '4321' },
    });
    expect(ok.status).toBe(200);
  });

  it('checks the register captcha too', async () => {
    const body = { username: 'captcha-user', password: 'secret-1' };
    expect((await api(captchaBackend.url, 'POST', '/api/v1/user/register', { body })).status).toBe(400);
    const ok = await api(captchaBackend.url, 'POST', '/api/v1/user/register', {
      body: { ...body, captcha_id: await captcha('register'), captcha: '4321' },
    });
    expect(ok.status).toBe(200);
  });

  it('lets no more checks than it covers through with one captcha, however many come at once', async () => {
    const id = await captcha('login');
    const answers = await Promise.all(
      Array.from({ length: 3 * CAPTCHA_ATTEMPTS }, () =>
        api(captchaBackend.url, 'POST', '/api/v1/user/login', {
          body: { username: 'admin', password: 'not-the-password', captcha_id: id, captcha: '4321' },
        }),
      ),
    );
    const messages = answers.map((res) => res.body.message as string);
    expect(messages.filter((m) => m === '用户名或密码错误')).toHaveLength(CAPTCHA_ATTEMPTS);
    expect(messages.filter((m) => m === '验证码错误')).toHaveLength(2 * CAPTCHA_ATTEMPTS);
  });

  it('answers whether an e-mail has an account a few times per find-password captcha, not for a list', async () => {
    const id = await captcha('find_password');
    const ask = (n: number) =>
      api(captchaBackend.url, 'POST', '/api/v1/user/findpassword/stepone', {
        body: { email: `nobody${n}@example.com`, captcha_id: id, captcha: '4321' },
      });
    for (let n = 1; n <= CAPTCHA_ATTEMPTS; n += 1)
      expect((await ask(n)).body.message, `address ${n}`).toBe('用户不存在');
    expect((await ask(CAPTCHA_ATTEMPTS + 1)).body.message).toBe('验证码错误');
  });

  it('spends the find-password captcha on the mail it sent', async () => {
    const admin = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: {
        username: 'admin',
        password: captchaBackend.adminPassword,
        captcha_id: await captcha('login'),
        captcha: '4321',
      },
    });
    const register = await api(captchaBackend.url, 'POST', '/api/v1/user/register', {
      body: {
        username: 'lost-captcha',
        password: 'secret-1',
        email: 'lost-captcha@example.com',
        captcha_id: await captcha('register'),
        captcha: '4321',
      },
    });
    expect(register.status, register.text).toBe(200);
    await setConfig(captchaBackend.url, admin.body.token, {
      ...mailSettings(smtp),
      'system.domain': 'https://docs.example.com',
    });
    const id = await captcha('find_password');
    const since = smtp.mails.length;
    const body = { email: 'lost-captcha@example.com', captcha_id: id, captcha: '4321' };
    const sent = await api(captchaBackend.url, 'POST', '/api/v1/user/findpassword/stepone', { body });
    expect(sent.status, sent.text).toBe(200);
    expect((await smtp.next(since)).to).toEqual(['lost-captcha@example.com']);
    const again = await api(captchaBackend.url, 'POST', '/api/v1/user/findpassword/stepone', {
      body: { ...body, email: 'nobody@example.com' },
    });
    expect(again.body.message).toBe('验证码错误');
  });

  it('sends a few register codes per captcha, and registration still takes it after one', async () => {
    const admin = await api(captchaBackend.url, 'POST', '/api/v1/user/login', {
      body: {
        username: 'admin',
        password: captchaBackend.adminPassword,
        captcha_id: await captcha('login'),
        captcha: '4321',
      },
    });
    const taken = await api(captchaBackend.url, 'POST', '/api/v1/user/register', {
      body: {
        username: 'taken-captcha',
        password: 'secret-1',
        email: 'taken-captcha@example.com',
        captcha_id: await captcha('register'),
        captcha: '4321',
      },
    });
    expect(taken.status, taken.text).toBe(200);
    await setConfig(captchaBackend.url, admin.body.token, {
      ...mailSettings(smtp),
      'security.enable_verify_register_email': 'true',
    });
    try {
      const probe = await captcha('register');
      const code = (email: string, id: string) =>
        api(captchaBackend.url, 'POST', '/api/v1/user/email/code', {
          body: { email, captcha_id: id, captcha: '4321' },
        });
      for (let n = 1; n <= CAPTCHA_ATTEMPTS; n += 1)
        expect((await code('taken-captcha@example.com', probe)).status, `try ${n}`).toBe(409);
      expect((await code('taken-captcha@example.com', probe)).body.message).toBe('验证码错误');

      // The form's way: a code asked for with the captcha, then the registration with both.
      const id = await captcha('register');
      const since = smtp.mails.length;
      const sent = await code('fresh-captcha@example.com', id);
      expect(sent.status, sent.text).toBe(200);
      const mailed = /<b>(\d{6})<\/b>/.exec((await smtp.next(since)).text)![1]!;
      const registered = await api(captchaBackend.url, 'POST', '/api/v1/user/register', {
        body: {
          username: 'fresh-captcha',
          password: 'secret-1',
          email: 'fresh-captcha@example.com',
          code: mailed,
          captcha_id: id,
          captcha: '4321',
        },
      });
      expect(registered.status, registered.text).toBe(200);
    } finally {
      await setConfig(captchaBackend.url, admin.body.token, { 'security.enable_verify_register_email': 'false' });
    }
  });
});

describe('FindPassword', () => {
  it('says clearly when the mail service is off', async () => {
    await registerMember(backend.url, { email: 'lost@example.com' });
    const res = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
      body: { email: 'lost@example.com' },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 14, message: '邮件服务未启用，请联系管理员' });
  });

  it('mails a reset link whose token sets a new password once', async () => {
    const member = await registerMember(backend.url, { email: 'reset@example.com' });
    await enableMail();
    const since = smtp.mails.length;
    const one = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
      body: { email: 'reset@example.com' },
    });
    expect(one.status, one.text).toBe(200);
    const mail = await smtp.next(since);
    expect(mail.to).toEqual(['reset@example.com']);
    expect(mail.text).toContain('https://docs.example.com/auth/forgot?token=');
    const token = /token=([\w.-]+)/.exec(mail.text)![1]!;

    const weak = await api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
      body: { email: 'reset@example.com', token, password: '123' },
    });
    expect(weak.body.message).toBe('密码长度不能小于6位');
    const forged = await api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
      body: { email: 'reset@example.com', token: token + 'x', password: 'brand-new-1' },
    });
    expect(forged.body.message).toBe('链接无效或已过期，请重新找回密码');
    const two = await api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
      body: { email: 'reset@example.com', token, password: 'brand-new-1' },
    });
    expect(two.status).toBe(200);
    // The sessions opened before the reset are over; a login right after it works.
    expect((await api(backend.url, 'GET', '/api/v1/user/group', { token: member.token })).status).toBe(401);
    const fresh = await login(backend.url, member.username, 'brand-new-1');
    expect((await api(backend.url, 'GET', '/api/v1/user/group', { token: fresh })).status).toBe(200);
    const again = await api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
      body: { email: 'reset@example.com', token, password: 'brand-new-2' },
    });
    expect(again.body.message).toBe('链接无效或已过期，请重新找回密码');
  });

  it("mails a link whose minutes run by the database's clock, whichever machine mails it and which takes it", async () => {
    await registerMember(backend.url, { email: 'reset-skewed@example.com' });
    await enableMail();
    await backend.setConfig({ 'email.duration': '5' });
    try {
      const since = smtp.mails.length;
      // Mailed through a machine 10 minutes behind: its 5 minutes are not over before they start.
      const one = await withClockOff(-10 * 60_000, () =>
        api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email: 'reset-skewed@example.com' } }),
      );
      expect(one.status, one.text).toBe(200);
      const token = /token=([\w.-]+)/.exec((await smtp.next(since)).text)![1]!;
      // Taken through a machine 10 minutes ahead: not over either.
      const two = await withClockOff(10 * 60_000, () =>
        api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
          body: { email: 'reset-skewed@example.com', token, password: 'brand-new-1' },
        }),
      );
      expect(two.status, two.text).toBe(200);
    } finally {
      await backend.setConfig({ 'email.duration': '30' });
    }
  });

  it("refuses a reset link signed with MOREDOC's public default key, and signs with the admin's own", async () => {
    const member = await registerMember(backend.url, { email: 'forged@example.com' });
    await enableMail();
    const mailedToken = async () => {
      const since = smtp.mails.length;
      const asked = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
        body: { email: 'forged@example.com' },
      });
      expect(asked.status, asked.text).toBe(200);
      return /token=([\w.-]+)/.exec((await smtp.next(since)).text)![1]!;
    };
    // A link seen once (even a lapsed one) tells what it was for; with a key anybody knows, a
    // new one could be signed for as long as the password stays the same.
    const seen = decodeJwt(await mailedToken());
    const forge = (key: string) =>
      new SignJWT({ pwd: seen.pwd })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setJti('forged@example.com')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(key));
    const reset = async (token: string, password: string) =>
      api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
        body: { email: 'forged@example.com', token, password },
      });
    expect((await reset(await forge('moredoc'), 'forged-pass-1')).body.message).toBe(
      '链接无效或已过期，请重新找回密码',
    );
    await backend.setConfig({ 'email.secret': 'our-own-reset-key' });
    try {
      expect((await reset(await forge('our-own-reset-key'), 'own-key-pass-1')).status).toBe(200);
      expect(typeof (await login(backend.url, member.username, 'own-key-pass-1'))).toBe('string');
    } finally {
      await backend.setConfig({ 'email.secret': 'moredoc' });
    }
  });

  it('sets one password when a reset link is sent twice at once', async () => {
    const member = await registerMember(backend.url, { email: 'twice@example.com' });
    await enableMail();
    const since = smtp.mails.length;
    const asked = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
      body: { email: 'twice@example.com' },
    });
    expect(asked.status, asked.text).toBe(200);
    const token = /token=([\w.-]+)/.exec((await smtp.next(since)).text)![1]!;
    const passwords = ['first-new-1', 'second-new-2'];
    const answers = await Promise.all(
      passwords.map((password) =>
        api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', {
          body: { email: 'twice@example.com', token, password },
        }),
      ),
    );
    const won = answers.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.find((res) => res.status !== 200)!;
    expect(lost.body.message).toBe('链接无效或已过期，请重新找回密码');
    // The password set is the one whose request was answered 200; the reset says so once.
    const winner = passwords[answers.indexOf(won[0]!)]!;
    expect(typeof (await login(backend.url, member.username, winner))).toBe('string');
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', {
      token: await login(backend.url, member.username, winner),
    });
    expect(dynamics.body.dynamic.filter((d: { content: string }) => d.content === '通过邮箱找回了密码')).toHaveLength(
      1,
    );
  });

  it('mails one reset link a minute to an address, however many ask', async () => {
    await registerMember(backend.url, { email: 'flooded@example.com' });
    await registerMember(backend.url, { email: 'neighbour@example.com' });
    await enableMail();
    const since = smtp.mails.length;
    const ask = (email: string) => api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email } });
    expect((await ask('flooded@example.com')).status).toBe(200);
    await smtp.next(since);
    const again = await ask('Flooded@Example.com');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 3,
      message: '找回密码的邮件刚刚已发送，请查收邮箱（也请看看垃圾邮件）；1 分钟后才能再次发送',
    });
    // Another address is not held up by it.
    expect((await ask('neighbour@example.com')).status).toBe(200);
    expect((await smtp.next(since + 1)).to).toEqual(['neighbour@example.com']);
    expect(smtp.mails.slice(since).map((mail) => mail.to)).toEqual([
      ['flooded@example.com'],
      ['neighbour@example.com'],
    ]);
  });

  it('answers a bad reset link in Chinese, as the /auth/forgot form shows it', async () => {
    await registerMember(backend.url, { email: 'badlink@example.com' });
    await registerMember(backend.url, { email: 'other@example.com' });
    await enableMail();
    const since = smtp.mails.length;
    await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email: 'badlink@example.com' } });
    const token = /token=([\w.-]+)/.exec((await smtp.next(since)).text)![1]!;
    // A link typed or cut short, one made for another address, none at all.
    for (const body of [
      { email: 'badlink@example.com', token: 'abc', password: 'brand-new-1' },
      { email: 'other@example.com', token, password: 'brand-new-1' },
      { email: 'badlink@example.com', token: '', password: 'brand-new-1' },
    ]) {
      const res = await api(backend.url, 'PUT', '/api/v1/user/findpassword/steptwo', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 3, message: '链接无效或已过期，请重新找回密码' });
    }
  });

  it('tells a visitor whose reset mail the SMTP server refused to try again, without its English reason', async () => {
    await registerMember(backend.url, { email: 'smtpdown@example.com' });
    await enableMail();
    await backend.setConfig({ 'email.port': String(await freePort()) });
    try {
      const res = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
        body: { email: 'smtpdown@example.com' },
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14, message: '邮件发送失败，请稍后再试或联系管理员' });
    } finally {
      await enableMail();
    }
  });

  it("mails no link while the site has no 网站域名 (a link is never built from the request's Host)", async () => {
    await registerMember(backend.url, { email: 'nodomain@example.com' });
    await enableMail();
    await backend.setConfig({ 'system.domain': '' });
    try {
      const since = smtp.mails.length;
      const res = await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', {
        body: { email: 'nodomain@example.com' },
        headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14, message: '网站域名尚未配置，暂时无法通过邮件找回密码，请联系管理员' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smtp.mails.length).toBe(since);
    } finally {
      await backend.setConfig({ 'system.domain': 'https://docs.example.com' });
    }
  });

  it('answers 404 for an unknown e-mail and 400 for a malformed one', async () => {
    await enableMail();
    expect(
      (await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email: 'ghost@example.com' } }))
        .status,
    ).toBe(404);
    expect(
      (await api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email: 'ghost' } })).status,
    ).toBe(400);
  });
});

describe('SendEmailCode and verified registration', () => {
  it('mails a code that registration then requires', async () => {
    await enableMail();
    await backend.setConfig({ 'security.enable_verify_register_email': 'true' });
    try {
      const since = smtp.mails.length;
      const sent = await api(backend.url, 'POST', '/api/v1/user/email/code', {
        body: { email: 'verify@example.com', type: 'EmailCodeTypeRegister' },
      });
      expect(sent.status, sent.text).toBe(200);
      const code = /<b>(\d{6})<\/b>/.exec((await smtp.next(since)).text)![1]!;
      const tooSoon = await api(backend.url, 'POST', '/api/v1/user/email/code', {
        body: { email: 'verify@example.com' },
      });
      expect(tooSoon.body.message).toBe('发送太频繁，请稍后再试');

      const body = { username: 'verified-user', password: 'secret-1', email: 'verify@example.com' };
      const noEmail = await api(backend.url, 'POST', '/api/v1/user/register', {
        body: { username: 'x-verified', password: 'secret-1' },
      });
      expect(noEmail.body.message).toBe('邮箱不能为空');
      const wrong = await api(backend.url, 'POST', '/api/v1/user/register', {
        body: { ...body, code: '000000' === code ? '111111' : '000000' },
      });
      expect(wrong.body.message).toBe('邮箱验证码错误');
      const ok = await api(backend.url, 'POST', '/api/v1/user/register', { body: { ...body, code } });
      expect(ok.status, ok.text).toBe(200);
      const reused = await api(backend.url, 'POST', '/api/v1/user/register', {
        body: { ...body, username: 'verified-two', code },
      });
      expect(reused.status).toBe(409);
    } finally {
      await backend.setConfig({ 'security.enable_verify_register_email': 'false' });
    }
  });

  it("counts a mail's interval and a code's 30 minutes by the database's clock, whichever machine sent it", async () => {
    const BEHIND_MS = -31 * 60_000;
    await registerMember(backend.url, { email: 'reset-skew@example.com' });
    await enableMail();
    await backend.setConfig({ 'security.enable_verify_register_email': 'true' });
    try {
      const since = smtp.mails.length;
      const email = 'skewed@example.com';
      // Sent by a machine 31 minutes behind: the next one waits its minute, and a machine 31
      // minutes ahead finds the code not past its 30 minutes.
      const sent = await withClockOff(BEHIND_MS, () =>
        api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email } }),
      );
      expect(sent.status, sent.text).toBe(200);
      const code = /<b>(\d{6})<\/b>/.exec((await smtp.next(since)).text)![1]!;
      const tooSoon = await api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email } });
      expect(tooSoon.body.message).toBe('发送太频繁，请稍后再试');
      const ok = await withClockOff(-BEHIND_MS, () =>
        api(backend.url, 'POST', '/api/v1/user/register', {
          body: { username: 'skewed-user', password: 'secret-1', email, code },
        }),
      );
      expect(ok.status, ok.text).toBe(200);

      const ask = () =>
        api(backend.url, 'POST', '/api/v1/user/findpassword/stepone', { body: { email: 'reset-skew@example.com' } });
      expect((await withClockOff(BEHIND_MS, ask)).status).toBe(200);
      expect((await ask()).body.message).toBe(
        '找回密码的邮件刚刚已发送，请查收邮箱（也请看看垃圾邮件）；1 分钟后才能再次发送',
      );
    } finally {
      await backend.setConfig({ 'security.enable_verify_register_email': 'false' });
    }
  });

  it('lets a register code be tried wrong five times, then asks for a new one', async () => {
    await enableMail();
    await backend.setConfig({ 'security.enable_verify_register_email': 'true' });
    try {
      const since = smtp.mails.length;
      const email = 'guessed@example.com';
      expect((await api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email } })).status).toBe(200);
      const code = /<b>(\d{6})<\/b>/.exec((await smtp.next(since)).text)![1]!;
      const register = (tried: string) =>
        api(backend.url, 'POST', '/api/v1/user/register', {
          body: { username: 'guessing-user', password: 'secret-1', email, code: tried },
        });
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 5; i++) expect((await register(wrong)).body.message).toBe('邮箱验证码错误');
      const right = await register(code);
      expect(right.status).toBe(400);
      expect(right.body).toMatchObject({ code: 3, message: '邮箱验证码错误次数过多或已失效，请重新获取' });
    } finally {
      await backend.setConfig({ 'security.enable_verify_register_email': 'false' });
    }
  });

  it('mails at most 20 register codes an hour for one client address, whatever the addresses', async () => {
    await enableMail();
    await backend.setConfig({ 'security.enable_verify_register_email': 'true' });
    try {
      const send = (email: string) => api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email } });
      expect((await send('loop-0@example.com')).status).toBe(200);
      await withDatabase(backend.dataDir, async (db) => {
        const { ip } = await db
          .selectFrom('email_code')
          .select('ip')
          .where('email', '=', 'loop-0@example.com')
          .executeTakeFirstOrThrow();
        // Nineteen more from the same address within the hour; the codes of other addresses do not count.
        await db.deleteFrom('email_code').where('ip', '=', ip).where('email', '!=', 'loop-0@example.com').execute();
        const ts = new Date().toISOString();
        for (let i = 1; i < 20; i++)
          await db
            .insertInto('email_code')
            .values({ email: `loop-${i}@example.com`, code: '123456', type: 0, ip, created_at: ts, updated_at: ts })
            .execute();
      });
      const over = await send('loop-20@example.com');
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ code: 8, message: '当前网络获取邮箱验证码的次数过多，请一小时后再试' });
    } finally {
      await withDatabase(backend.dataDir, (db) =>
        db.deleteFrom('email_code').where('email', 'like', 'loop-%').execute(),
      );
      await backend.setConfig({ 'security.enable_verify_register_email': 'false' });
    }
  });

  it('counts the 20 register codes an hour of an IPv6 client by its /64', async () => {
    await enableMail();
    await backend.setConfig({ 'security.enable_verify_register_email': 'true' });
    try {
      const send = (email: string, address: string) =>
        api(backend.url, 'POST', '/api/v1/user/email/code', {
          body: { email },
          headers: { 'x-forwarded-for': address },
        });
      expect((await send('loop6-0@example.com', '2001:db8:e::1')).status).toBe(200);
      // Nineteen more within the hour, each from another address of the /64.
      await withDatabase(backend.dataDir, async (db) => {
        const ts = new Date().toISOString();
        for (let i = 1; i < 20; i++)
          await db
            .insertInto('email_code')
            .values({
              email: `loop6-${i}@example.com`,
              code: '123456',
              type: 0,
              ip: `2001:db8:e::${i + 1}`,
              created_at: ts,
              updated_at: ts,
            })
            .execute();
      });
      const over = await send('loop6-20@example.com', '2001:db8:e::ffff');
      expect(over.status).toBe(429);
      expect(over.body.message).toBe('当前网络获取邮箱验证码的次数过多，请一小时后再试');
      expect((await send('loop6-21@example.com', '2001:db8:e:1::1')).status).toBe(200);
    } finally {
      await withDatabase(backend.dataDir, (db) =>
        db.deleteFrom('email_code').where('email', 'like', 'loop6-%').execute(),
      );
      await backend.setConfig({ 'security.enable_verify_register_email': 'false' });
    }
  });

  it('is refused while e-mail verification is off, and for registered addresses', async () => {
    const off = await api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email: 'someone@example.com' } });
    expect(off.body.message).toBe('系统未开启注册邮箱验证');
    const bad = await api(backend.url, 'POST', '/api/v1/user/email/code', { body: { email: 'nope' } });
    expect(bad.body.message).toBe('邮箱格式不正确');
  });
});

describe('the captcha image', () => {
  /** WCAG relative luminance and contrast ratio. */
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };

  it('draws every glyph in a dark ink on a light background, at least 7:1', async () => {
    await backend.setConfig({
      'security.enable_captcha_login': 'true',
      'captcha.type': 'digit',
      'captcha.length': '5',
    });
    try {
      for (let round = 0; round < 5; round += 1) {
        const res = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'login' } });
        const svg = Buffer.from(String(res.body.captcha).split(',')[1] ?? '', 'base64').toString();
        expect(svg).toMatch(new RegExp(`^<svg[^>]*><rect width="100%" height="100%" fill="${CAPTCHA_BACKGROUND}"/>`));
        const glyphs = [...svg.matchAll(/<path fill="(#[0-9a-f]{6})" d=/gi)].map((m) => m[1]!);
        expect(glyphs).toHaveLength(5);
        for (const ink of glyphs) expect(contrast(ink, CAPTCHA_BACKGROUND)).toBeGreaterThanOrEqual(7);
      }
      for (const ink of CAPTCHA_INKS) expect(contrast(ink, CAPTCHA_BACKGROUND), ink).toBeGreaterThanOrEqual(7);
    } finally {
      await backend.setConfig({ 'security.enable_captcha_login': 'false' });
    }
  });
});
