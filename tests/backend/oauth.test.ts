import fs from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyRemoteImage, isPublicAddress } from '../../backend/modules/attachment/remote-image';
import { LocalBlobStore } from '../../backend/platform/blobs/local-blob-store';
import { api, login, setConfig, startBackend, useBackend, withDatabase } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';
import {
  STUB_APPS,
  startOAuthProvider,
  type Identity,
  type OAuthProviderStub,
  type Provider,
} from '../helpers/oauth-provider';

// OAuthAPI (docs/api.md §5) against a stub WeChat/QQ over real HTTP, on a real SQLite.

const INVALID_STATE = '登录请求无效或已过期，请重新登录';

let stub: OAuthProviderStub;
let openidCounter = 0;

beforeAll(async () => {
  stub = await startOAuthProvider();
});
afterAll(() => stub?.close());

// An https image host on 127.0.0.1 (the gateway tests' self-signed certificate, for 127.0.0.1).
const fixtures = new URL('../gateway/fixtures/', import.meta.url);
const CERT = fs.readFileSync(new URL('self-signed.crt', fixtures));
/** A PNG's signature and IHDR (2 x 3 pixels): what the bytes check reads. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0]),
]);
const images = { url: '', hits: [] as string[], server: undefined as Server | undefined };
beforeAll(async () => {
  images.server = createHttpsServer(
    { key: fs.readFileSync(new URL('self-signed.key', fixtures)), cert: CERT },
    (req, res) => {
      images.hits.push(req.url ?? '');
      if (req.url === '/slow') return; // never answers
      if (req.url === '/html') return void res.end('<!doctype html><p>hi</p>');
      if (req.url?.startsWith('/v2/')) {
        // Another picture: other bytes, so another copy.
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.concat([PNG, Buffer.from(req.url)]));
      }
      if (req.url === '/big') {
        // No Content-Length: the size is found while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG);
        res.write(Buffer.alloc(4096));
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    },
  );
  await new Promise<void>((r) => images.server!.listen(0, '127.0.0.1', r));
  images.url = `https://127.0.0.1:${(images.server.address() as { port: number }).port}`;
});
afterAll(() => {
  images.server?.closeAllConnections();
  images.server?.close();
});
afterEach(() => {
  images.hits = [];
});
// Registered after the stub's hooks: its env reads the stub's URLs, and the backend closes first.
const backend = useBackend({
  env: () => ({
    CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com',
    ...stub.settingsEnv,
    ...stub.env,
    OAUTH_TIMEOUT_MS: '500',
  }),
});
afterEach(() => {
  stub.fault = null;
});

function newIdentity(fields: Partial<Identity> = {}): Identity {
  openidCounter += 1;
  return { openid: `o_test_${process.pid}_${openidCounter}`, nickname: `读者${openidCounter}号`, ...fields };
}

async function authorize(type: Provider, at: { url: string } = backend): Promise<{ url: URL; state: string }> {
  const res = await api(at.url, 'GET', '/api/v1/oauth/authorize', { query: { type } });
  expect(res.status, res.text).toBe(200);
  const url = new URL(res.body.url as string);
  return { url, state: url.searchParams.get('state')! };
}

const oauthLogin = (body: { type: string; code: string; state: string }, at: { url: string } = backend) =>
  api(at.url, 'POST', '/api/v1/oauth/login', { body });

/** The whole round trip: authorize, the visitor allows it at the provider, login with the code. */
async function signIn(type: Provider, identity: Identity, at: { url: string } = backend) {
  const { state } = await authorize(type, at);
  return oauthLogin({ type, code: stub.issueCode(type, identity), state }, at);
}

const countUsers = (dataDir = backend.dataDir) =>
  withDatabase(
    dataDir,
    async (db) =>
      (
        await db
          .selectFrom('user')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
  );
const countBindings = (column: 'user_id' | 'openid', value: string | number, dataDir = backend.dataDir) =>
  withDatabase(
    dataDir,
    async (db) =>
      (
        await db
          .selectFrom('oauth_binding')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', value)
          .executeTakeFirstOrThrow()
      ).n,
  );

describe('OAuthAPI.Authorize', () => {
  it('is refused while a provider is off (the default) or has no app id and secret', async () => {
    const fresh = await startBackend();
    try {
      const freshAdmin = await login(fresh.url, 'admin', fresh.adminPassword);
      for (const [type, message] of [
        ['wechat', '微信登录未开启'],
        ['qq', 'QQ 登录未开启'],
      ] as const) {
        const res = await api(fresh.url, 'GET', '/api/v1/oauth/authorize', { query: { type } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message, code: 3, message });
      }
      await setConfig(fresh.url, freshAdmin, {
        'oauth.wechat': 'true',
        'oauth.qq': 'true',
        'oauth.qq_app_id': '101234567',
      });
      const wechat = await api(fresh.url, 'GET', '/api/v1/oauth/authorize', { query: { type: 'wechat' } });
      expect(wechat.body).toMatchObject({ code: 3, message: '微信登录尚未配置 AppID 和 AppSecret，请联系管理员' });
      const qq = await api(fresh.url, 'GET', '/api/v1/oauth/authorize', { query: { type: 'qq' } });
      expect(qq.body).toMatchObject({ code: 3, message: 'QQ 登录尚未配置 AppID 和 AppKey，请联系管理员' });
    } finally {
      await fresh.close();
    }
  });

  it.each(['', 'github', 'WECHAT'])('refuses the provider type %j with 400', async (type) => {
    const res = await api(backend.url, 'GET', '/api/v1/oauth/authorize', { query: { type } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('不支持的第三方登录方式（参数 type 应为 wechat 或 qq）');
  });

  it('answers the WeChat QR page with appid, redirect_uri (?type=wechat), snsapi_login and a fresh state', async () => {
    const before = Date.now();
    const first = await authorize('wechat');
    const second = await authorize('wechat');
    const { url, state } = first;
    expect(`${url.origin}${url.pathname}`).toBe(`${stub.url}/wechat/connect/qrconnect`);
    expect(url.hash).toBe('#wechat_redirect');
    expect([...url.searchParams.keys()]).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state']);
    expect(url.searchParams.get('appid')).toBe(STUB_APPS.wechat.appId);
    expect(url.searchParams.get('redirect_uri')).toBe('https://docs.example.com/oauth/callback?type=wechat');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('snsapi_login');
    expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second.state).not.toBe(state);

    const row = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('oauth_state').selectAll().where('state', '=', state).executeTakeFirstOrThrow(),
    );
    expect(row).toMatchObject({
      provider: 'wechat',
      used_at: null,
      redirect_uri: 'https://docs.example.com/oauth/callback?type=wechat',
    });
    const ttl = Date.parse(row.expires_at) - before;
    expect(ttl).toBeGreaterThanOrEqual(10 * 60 * 1000 - 50);
    expect(ttl).toBeLessThanOrEqual(10 * 60 * 1000 + 5000);
  });

  it('answers the QQ authorize page with client_id, redirect_uri (?type=qq) and a state', async () => {
    const { url, state } = await authorize('qq');
    expect(`${url.origin}${url.pathname}`).toBe(`${stub.url}/qq/oauth2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: STUB_APPS.qq.appId,
      redirect_uri: 'https://docs.example.com/oauth/callback?type=qq',
      state,
    });
    expect(url.hash).toBe('');
  });

  it('sends the visitor back to oauth.callback_url when it is set, with type added to its own query', async () => {
    await backend.setConfig({
      'oauth.callback_url': 'https://login.example.com/cb?from=site',
    });
    try {
      const { url } = await authorize('qq');
      expect(url.searchParams.get('redirect_uri')).toBe('https://login.example.com/cb?from=site&type=qq');
    } finally {
      await backend.setConfig({ 'oauth.callback_url': '' });
    }
  });

  it('refuses a callback_url that is not an http(s) address', async () => {
    for (const value of ['javascript:alert(1)', '/oauth/callback', 'https://']) {
      await expect(backend.setConfig({ 'oauth.callback_url': value })).rejects.toThrow(/400/);
    }
  });
});

// An anonymous loop of Authorize calls would otherwise store a state per call without end.
describe('OAuthAPI.Authorize under the sign-in limit (SIGN_IN_LIMIT 3)', () => {
  const LIMIT = 3;
  const limited = useBackend({
    env: () => ({
      CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com',
      ...stub.settingsEnv,
      ...stub.env,
      SIGN_IN_LIMIT: String(LIMIT),
    }),
  });
  const stateRows = () =>
    withDatabase(limited.dataDir, (db) => db.selectFrom('oauth_state').select(['state', 'expires_at']).execute());
  const authorizeFrom = (address: string) =>
    api(limited.url, 'GET', '/api/v1/oauth/authorize', {
      query: { type: 'wechat' },
      headers: { 'x-forwarded-for': address },
    });
  /** A HEAD runs the GET's handler: it stores a state too, and counts alike. */
  const headFrom = async (address: string) =>
    (
      await fetch(`${limited.url}/api/v1/oauth/authorize?type=wechat`, {
        method: 'HEAD',
        headers: { 'x-forwarded-for': address },
      })
    ).status;

  it('stores a state for the first tries of an address a minute, and refuses the rest with 429 in Chinese', async () => {
    const address = '198.51.100.7';
    expect((await authorizeFrom(address)).status).toBe(200);
    expect(await headFrom(address)).toBe(200);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await authorizeFrom(address));
    expect(answers.map((res) => res.status)).toEqual([...Array(LIMIT - 2).fill(200), ...Array(10 - LIMIT).fill(429)]);
    expect(await headFrom(address)).toBe(429);
    const refused = answers.at(-1)!;
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      code: 8,
      error: `操作过于频繁，请 ${wait} 秒后再试`,
      message: `操作过于频繁，请 ${wait} 秒后再试`,
    });
    expect((await stateRows()).length).toBe(LIMIT);
    // Another address has its own count.
    expect((await authorizeFrom('198.51.100.8')).status).toBe(200);
    expect((await stateRows()).length).toBe(LIMIT + 1);
  });

  it('drops the expired states at the next authorize, so the table holds no more than ten minutes of them', async () => {
    await withDatabase(limited.dataDir, (db) =>
      db
        .updateTable('oauth_state')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute(),
    );
    const fresh = await authorizeFrom('198.51.100.9');
    expect(fresh.status).toBe(200);
    const rows = await stateRows();
    expect(rows.map((row) => row.state)).toEqual([new URL(fresh.body.url as string).searchParams.get('state')]);
  });
});

describe('OAuthAPI.Login', () => {
  it('creates a member on the first WeChat sign-in and signs the same member in afterwards', async () => {
    const identity = newIdentity({
      nickname: '书虫 小王',
      unionid: 'u_union_0001',
      avatar: `${images.url}/mmopen/abc/132`,
    });
    const usersBefore = await countUsers();

    const first = await signIn('wechat', identity);
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['token', 'user']);
    expect(first.body.user).toMatchObject({
      username: '书虫小王',
      register_ip: '127.0.0.1',
      last_login_ip: '127.0.0.1',
      credit_count: 10,
    });
    // The image server is on a loopback address: refused before it is asked, the default avatar kept.
    expect(first.body.user.avatar).toBeUndefined();
    expect(images.hits).toEqual([]);
    expect(first.body.user.password).toBeUndefined();
    expect(first.body.user.login_at).toBeDefined();
    const userId = first.body.user.id as number;
    const me = await api(backend.url, 'GET', '/api/v1/user', { token: first.body.token });
    expect(me.body).toMatchObject({ id: userId, username: '书虫小王' });
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token: first.body.token });
    expect(groups.body.group.map((g: { id: number }) => g.id)).toEqual([2]);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: first.body.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({ type: 6, content: '通过微信注册成为会员，获得 10 魔豆奖励' });
    const binding = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('oauth_binding').selectAll().where('openid', '=', identity.openid).executeTakeFirst(),
    );
    expect(binding).toMatchObject({ provider: 'wechat', unionid: 'u_union_0001', user_id: userId });
    const tokenCall = stub.calls.findLast((c) => c.path === '/sns/oauth2/access_token')!;
    expect(Object.fromEntries(tokenCall.query)).toMatchObject({
      appid: STUB_APPS.wechat.appId,
      secret: STUB_APPS.wechat.secret,
      grant_type: 'authorization_code',
    });

    // A changed nickname at WeChat does not rename the member; it is the same account.
    const second = await signIn('wechat', { ...identity, nickname: '改了名字' });
    expect(second.status, second.text).toBe(200);
    expect(second.body.user).toMatchObject({ id: userId, username: '书虫小王' });
    expect(second.body.token).not.toBe(first.body.token);
    expect(await countUsers()).toBe(usersBefore + 1);
    expect(await countBindings('user_id', userId)).toBe(1);
    const later = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: second.body.token });
    expect(later.body.dynamic[0]).toMatchObject({ type: 5, content: '通过微信登录' });
  });

  it('signs in through QQ (token, me, get_user_info) with the redirect_uri of the authorize step', async () => {
    const identity = newIdentity({ nickname: 'QQ书友', avatar: `${images.url.replace('https:', 'http:')}/g?b=oidb` });
    const { url, state } = await authorize('qq');
    const res = await oauthLogin({ type: 'qq', code: stub.issueCode('qq', identity), state });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ username: 'QQ书友' });
    expect(res.body.user.avatar).toBeUndefined();
    const recent = stub.calls.slice(-3);
    expect(recent.map((c) => c.path)).toEqual(['/oauth2.0/token', '/oauth2.0/me', '/user/get_user_info']);
    expect(Object.fromEntries(recent[0]!.query)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: STUB_APPS.qq.appId,
      client_secret: STUB_APPS.qq.secret,
      redirect_uri: url.searchParams.get('redirect_uri'),
      fmt: 'json',
    });
    expect(recent[1]!.query.get('fmt')).toBe('json');
    expect(Object.fromEntries(recent[2]!.query)).toMatchObject({
      oauth_consumer_key: STUB_APPS.qq.appId,
      openid: identity.openid,
    });

    // The same openid at the other provider is another person.
    const wechat = await signIn('wechat', { ...identity, nickname: 'QQ书友' });
    expect(wechat.status).toBe(200);
    expect(wechat.body.user.id).not.toBe(res.body.user.id);
    expect(wechat.body.user.username).toMatch(/^QQ书友_\d{4}$/);
  });

  it.each([
    ['小明', /^小明_\d{4}$/],
    ['', /^微信用户(_\d{4})?$/],
    [' a@b\tc\u200b ', /^abc$/],
    ['13812345678', /^13812345678_\d{4}$/],
    ['很长的昵称'.repeat(8), /^(很长的昵称){4}$/],
  ])('derives a valid username from the nickname %j', async (nickname, expected) => {
    const res = await signIn('wechat', newIdentity({ nickname }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.username).toMatch(expected);
  });

  it('leaves the avatar empty when the provider gives no http(s) image URL', async () => {
    for (const avatar of [
      'javascript:alert(1)',
      'https://127.0.0.1:1/a b.png',
      `https://127.0.0.1:1/${'a'.repeat(300)}.png`,
    ]) {
      const res = await signIn('wechat', newIdentity({ avatar }));
      expect(res.status).toBe(200);
      expect(res.body.user.avatar).toBeUndefined();
    }
  });

  it('refuses a state that is unknown, spent, expired or issued for the other provider, without asking the provider', async () => {
    const identity = newIdentity();
    const ok = await signIn('qq', identity);
    expect(ok.status).toBe(200);
    const spent = await authorize('qq');
    expect((await oauthLogin({ type: 'qq', code: stub.issueCode('qq', identity), state: spent.state })).status).toBe(
      200,
    );

    const expired = await authorize('wechat');
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('oauth_state')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('state', '=', expired.state)
        .execute(),
    );
    const wechatState = await authorize('wechat');

    const callsBefore = stub.calls.length;
    for (const [type, state] of [
      ['qq', 'not-a-state-we-issued'],
      ['qq', ''],
      ['qq', 'x'.repeat(500)],
      ['qq', spent.state],
      ['wechat', expired.state],
      ['qq', wechatState.state],
    ] as const) {
      const res = await oauthLogin({ type, code: stub.issueCode(type, identity), state });
      expect(res.status, `${type} ${state}`).toBe(400);
      expect(res.body).toEqual({ error: INVALID_STATE, code: 3, message: INVALID_STATE });
    }
    expect(stub.calls.length).toBe(callsBefore);
  });

  it("gives a started sign-in its 10 minutes by the database's clock, whichever machines start and end it", async () => {
    const MINUTE_MS = 60_000;
    const identity = newIdentity();
    // Started through a machine 10 minutes behind, ended through the one on time.
    const behind = await withClockOff(-10 * MINUTE_MS, () => authorize('qq'));
    const first = await oauthLogin({ type: 'qq', code: stub.issueCode('qq', identity), state: behind.state });
    expect(first.status, first.text).toBe(200);
    // Started on time; another started through a machine 10 minutes ahead drops no live state.
    const onTime = await authorize('qq');
    await withClockOff(10 * MINUTE_MS, () => authorize('qq'));
    const second = await oauthLogin({ type: 'qq', code: stub.issueCode('qq', identity), state: onTime.state });
    expect(second.status, second.text).toBe(200);
  });

  it('answers 400 when the provider refuses the code, and the state is spent all the same', async () => {
    for (const [type, message] of [
      ['wechat', '微信授权已失效或已被使用，请重新登录'],
      ['qq', 'QQ 授权已失效或已被使用，请重新登录'],
    ] as const) {
      const { state } = await authorize(type);
      const refused = await oauthLogin({ type, code: 'a-code-the-provider-never-issued', state });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: message, code: 3, message });
      const retry = await oauthLogin({ type, code: stub.issueCode(type, newIdentity()), state });
      expect(retry.body.message).toBe(INVALID_STATE);
    }
  });

  it.each([
    ['refuse-app', 'wechat', 502, 14, '微信登录服务拒绝了请求（错误码 40125），请联系管理员'],
    ['refuse-app', 'qq', 502, 14, 'QQ 登录服务拒绝了请求（错误码 100009），请联系管理员'],
    ['http-500', 'wechat', 502, 14, '微信登录服务返回了无法识别的应答，请稍后再试'],
    ['not-json', 'qq', 502, 14, 'QQ 登录服务返回了无法识别的应答，请稍后再试'],
    ['reset', 'wechat', 502, 14, '无法连接微信登录服务，请稍后再试'],
    ['hang', 'qq', 504, 4, 'QQ 登录服务响应超时，请稍后再试'],
  ] as const)(
    'answers a provider fault %s (%s) with %i and a Chinese message',
    async (fault, type, status, code, message) => {
      const { state } = await authorize(type);
      stub.fault = fault;
      const res = await oauthLogin({ type, code: stub.issueCode(type, newIdentity()), state });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: message, code, message });
    },
  );

  it('answers 502 when an unreachable provider address is configured', async () => {
    const offline = await startBackend({
      env: {
        CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com',
        ...stub.settingsEnv,
        ...stub.env,
        OAUTH_WECHAT_API_URL: 'http://127.0.0.1:9/wechat-api',
      },
    });
    try {
      const auth = await api(offline.url, 'GET', '/api/v1/oauth/authorize', { query: { type: 'wechat' } });
      const state = new URL(auth.body.url).searchParams.get('state')!;
      const res = await api(offline.url, 'POST', '/api/v1/oauth/login', {
        body: { type: 'wechat', code: 'any-code', state },
      });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe('无法连接微信登录服务，请稍后再试');
    } finally {
      await offline.close();
    }
  });

  it('creates no account while registration or the site is closed, but still signs bound members in', async () => {
    const bound = newIdentity();
    expect((await signIn('wechat', bound)).status).toBe(200);
    const usersBefore = await countUsers();
    try {
      const closures: Record<string, string>[] = [
        { 'security.enable_register': 'false' },
        { 'security.enable_register': 'true', 'security.is_close': 'true' },
      ];
      for (const settings of closures) {
        await backend.setConfig(settings);
        const res = await signIn('qq', newIdentity());
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: '系统未开放注册', code: 3, message: '系统未开放注册' });
        expect((await signIn('wechat', bound)).status).toBe(200);
      }
      expect(await countUsers()).toBe(usersBefore);
    } finally {
      await backend.setConfig({
        'security.enable_register': 'true',
        'security.is_close': 'false',
      });
    }
  });

  it('refuses the sign-in when the provider was switched off after the authorize step', async () => {
    const { state } = await authorize('qq');
    await backend.setConfig({ 'oauth.qq': 'false' });
    try {
      const res = await oauthLogin({ type: 'qq', code: stub.issueCode('qq', newIdentity()), state });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('QQ 登录未开启');
    } finally {
      await backend.setConfig({ 'oauth.qq': 'true' });
    }
  });

  it.each([
    ['', 'a missing'],
    ['c'.repeat(513), 'an oversized'],
  ])('refuses %j (%s code) with 400', async (code) => {
    const { state } = await authorize('wechat');
    const res = await oauthLogin({ type: 'wechat', code, state });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('授权码无效（参数 code）');
  });

  it('gives a social account no password that could ever match, and drops its binding with the user', async () => {
    const identity = newIdentity({ nickname: '将被删除' });
    const first = await signIn('wechat', identity);
    const userId = first.body.user.id as number;
    const stored = await withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('user').select('password').where('id', '=', userId).executeTakeFirstOrThrow()).password,
    );
    expect(stored).toMatch(/^oauth\$[A-Za-z0-9_-]{32}$/);
    for (const password of ['', stored, stored.slice('oauth$'.length)]) {
      const res = await api(backend.url, 'POST', '/api/v1/user/login', { body: { username: '将被删除', password } });
      expect(res.status).toBe(400);
    }
    const deleted = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: userId, password: backend.adminPassword },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await countBindings('user_id', userId)).toBe(0);
    const again = await signIn('wechat', identity);
    expect(again.status).toBe(200);
    expect(again.body.user.id).not.toBe(userId);
  });
});

// Sign-ins at once wait for one another at the provider (holdIdentities): here, with the default time limit of
// its calls, not the 500 ms of the other backend.
describe('OAuthAPI.Login copying the avatar, and sign-ins at once (a backend that trusts the loopback image server)', () => {
  const trusting = useBackend({
    env: () => ({ CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com', ...stub.settingsEnv, ...stub.env }),
    build: { remoteImages: { allowAddress: () => true, ca: CERT } },
  });
  const PNG_PATH = /^\/uploads\/([0-9a-f]\/){5}[0-9a-f]{32}\.png$/;
  const avatarRows = (userId: number) =>
    withDatabase(trusting.dataDir, (db) =>
      db
        .selectFrom('attachment')
        .select(['path', 'type', 'type_id', 'enable'])
        .where('type', '=', 1)
        .where('user_id', '=', userId)
        .execute(),
    );
  /** The paths of the member's avatar rows not retired. */
  const liveAvatars = async (userId: number) =>
    (
      await withDatabase(trusting.dataDir, (db) =>
        db
          .selectFrom('attachment')
          .select('path')
          .where('type', '=', 1)
          .where('type_id', '=', userId)
          .where('deleted_at', 'is', null)
          .execute(),
      )
    ).map((r) => r.path);

  it("keeps a new member's provider avatar on our storage, served from /uploads/", async () => {
    const res = await signIn('wechat', newIdentity({ avatar: `${images.url}/mmopen/new/132` }), trusting);
    expect(res.status, res.text).toBe(200);
    expect(images.hits).toEqual(['/mmopen/new/132']);
    const avatar = res.body.user.avatar as string;
    expect(avatar).toMatch(PNG_PATH);
    const me = await api(trusting.url, 'GET', '/api/v1/user', { token: res.body.token });
    expect(me.body.avatar).toBe(avatar);
    const served = await fetch(trusting.url + avatar);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(await avatarRows(res.body.user.id)).toEqual([
      { path: avatar, type: 1, type_id: res.body.user.id, enable: expect.anything() },
    ]);
  });

  it('gives a bound member without an avatar the provider one at the next sign-in', async () => {
    // The first copy fails (the provider's address answers a page, not an image): the default avatar.
    const identity = newIdentity({ avatar: `${images.url}/html` });
    const first = await signIn('wechat', identity, trusting);
    expect(first.status, first.text).toBe(200);
    expect(first.body.user.avatar).toBeUndefined();

    const second = await signIn('wechat', { ...identity, avatar: `${images.url}/mmopen/later/132` }, trusting);
    expect(second.status, second.text).toBe(200);
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(second.body.user.avatar).toMatch(PNG_PATH);
    expect(images.hits).toEqual(['/html', '/mmopen/later/132']);
    const me = await api(trusting.url, 'GET', '/api/v1/user', { token: second.body.token });
    expect(me.body.avatar).toBe(second.body.user.avatar);
  });

  it('creates exactly one member, rewarded once, when first sign-ins of one account race', async () => {
    const usersBefore = await countUsers(trusting.dataDir);
    for (const provider of ['wechat', 'qq'] as const) {
      const identity = newIdentity();
      // The provider says who it is to all three at once: they look for the binding together.
      stub.holdIdentities(3);
      const results = await Promise.all([1, 2, 3].map(() => signIn(provider, identity, trusting)));
      expect(
        results.map((r) => r.status),
        results.map((r) => r.text).join('\n'),
      ).toEqual([200, 200, 200]);
      const userId = results[0]!.body.user.id as number;
      expect(results.map((r) => r.body.user.id)).toEqual([userId, userId, userId]);
      expect(await countBindings('openid', identity.openid, trusting.dataDir)).toBe(1);
      const dynamics = await withDatabase(trusting.dataDir, (db) =>
        db.selectFrom('dynamic').select('type').where('user_id', '=', userId).orderBy('id').execute(),
      );
      expect(dynamics.map((d) => d.type).sort()).toEqual([5, 5, 6]);
      const me = await api(trusting.url, 'GET', '/api/v1/user', { token: results[2]!.body.token });
      expect(me.body).toMatchObject({ id: userId, credit_count: 10 });
    }
    expect(await countUsers(trusting.dataDir)).toBe(usersBefore + 2);
  });

  it('keeps one avatar when sign-ins of one account race, new or bound without an avatar', async () => {
    const identity = newIdentity({ avatar: `${images.url}/html` });
    stub.holdIdentities(2);
    const first = await Promise.all([signIn('wechat', identity, trusting), signIn('wechat', identity, trusting)]);
    expect(first.map((r) => r.status)).toEqual([200, 200]);
    const userId = first[0]!.body.user.id as number;
    expect(first[1]!.body.user.id).toBe(userId);
    expect(await avatarRows(userId)).toEqual([]);

    // Bound, without an avatar: both sign-ins copy the provider's one, one of them keeps it.
    stub.holdIdentities(2);
    const later = { ...identity, avatar: `${images.url}/mmopen/race/132` };
    const second = await Promise.all([signIn('wechat', later, trusting), signIn('wechat', later, trusting)]);
    expect(second.map((r) => r.status)).toEqual([200, 200]);
    const avatar = second[0]!.body.user.avatar as string;
    expect(avatar).toMatch(PNG_PATH);
    expect(second[1]!.body.user.avatar).toBe(avatar);
    expect(await liveAvatars(userId)).toEqual([avatar]);
  });

  it('copies the avatar again when the provider names another address, while the member still has the copy', async () => {
    const identity = newIdentity({ avatar: `${images.url}/mmopen/one/132` });
    const first = await signIn('wechat', identity, trusting);
    expect(first.status, first.text).toBe(200);
    const copied = first.body.user.avatar as string;
    expect(copied).toMatch(PNG_PATH);

    // The same address: nothing asked, the copy kept.
    const same = await signIn('wechat', identity, trusting);
    expect(same.body.user.avatar).toBe(copied);
    expect(images.hits).toEqual(['/mmopen/one/132']);

    // The member changed their avatar at WeChat: its address changed with it.
    const changed = `${images.url}/v2/mmopen/two/132`;
    const again = await signIn('wechat', { ...identity, avatar: changed }, trusting);
    expect(again.status, again.text).toBe(200);
    const recopied = again.body.user.avatar as string;
    expect(recopied).toMatch(PNG_PATH);
    expect(recopied).not.toBe(copied);
    expect(images.hits).toEqual(['/mmopen/one/132', '/v2/mmopen/two/132']);
    const me = await api(trusting.url, 'GET', '/api/v1/user', { token: again.body.token });
    expect(me.body.avatar).toBe(recopied);
    const served = await fetch(trusting.url + recopied);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.concat([PNG, Buffer.from('/v2/mmopen/two/132')]));
    expect(await liveAvatars(first.body.user.id)).toEqual([recopied]);
    const binding = await withDatabase(trusting.dataDir, (db) =>
      db
        .selectFrom('oauth_binding')
        .select(['avatar_source', 'avatar'])
        .where('openid', '=', identity.openid)
        .executeTakeFirstOrThrow(),
    );
    expect(binding).toEqual({ avatar_source: changed, avatar: recopied });
  });

  it('never replaces an avatar the member uploaded, nor asks the provider for one', async () => {
    const identity = newIdentity({ avatar: `${images.url}/mmopen/first/132` });
    const first = await signIn('wechat', identity, trusting);
    expect(first.status, first.text).toBe(200);
    expect(first.body.user.avatar).toMatch(PNG_PATH);

    // The member uploads another image (other bytes, so another path) as the avatar.
    const mine = Buffer.concat([PNG, Buffer.from('mine')]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(mine)]), 'me.png');
    const uploaded = await fetch(`${trusting.url}/api/v1/upload/avatar`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${first.body.token}` },
    });
    expect(uploaded.status).toBe(200);
    const mineAt = ((await uploaded.json()) as { data: { path: string } }).data.path;
    expect(mineAt).not.toBe(first.body.user.avatar);

    images.hits = [];
    const again = await signIn('wechat', { ...identity, avatar: `${images.url}/mmopen/changed/132` }, trusting);
    expect(again.status, again.text).toBe(200);
    expect(again.body.user.avatar).toBe(mineAt);
    expect(images.hits).toEqual([]);
    const me = await api(trusting.url, 'GET', '/api/v1/user', { token: again.body.token });
    expect(me.body.avatar).toBe(mineAt);
  });
});

describe('copyRemoteImage (an OAuth avatar kept on our storage)', () => {
  const loopbackAllowed = { maxBytes: 1024, timeoutMs: 2000, ca: CERT, allowAddress: () => true };
  async function copy(url: string, opts: Parameters<typeof copyRemoteImage>[3]) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-remote-image-'));
    try {
      const blobs = new LocalBlobStore(root);
      const copied = await withDatabase(backend.dataDir, (db) => copyRemoteImage(blobs, db, url, opts));
      const kept = copied ? fs.readFileSync(path.join(root, copied.path.slice(1))) : null;
      return { copied, kept };
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }

  it('copies an image into uploads/, named by its hash and the type its bytes show', async () => {
    const { copied, kept } = await copy(`${images.url}/mmopen/a/132`, loopbackAllowed);
    expect(copied).toMatchObject({ ext: '.png', size: PNG.length, width: 2, height: 3 });
    expect(copied!.path).toMatch(/^\/uploads\/([0-9a-f]\/){5}[0-9a-f]{32}\.png$/);
    expect(kept).toEqual(PNG);
  });

  it('keeps nothing that is too big, not an image, too slow or not over https', async () => {
    expect((await copy(`${images.url}/big`, loopbackAllowed)).copied).toBeNull();
    expect((await copy(`${images.url}/html`, loopbackAllowed)).copied).toBeNull();
    expect((await copy(`${images.url}/slow`, { ...loopbackAllowed, timeoutMs: 200 })).copied).toBeNull();
    expect((await copy(`${images.url.replace('https:', 'http:')}/a`, loopbackAllowed)).copied).toBeNull();
    expect(images.hits).toEqual(['/big', '/html', '/slow']);
  });

  it('refuses loopback, private and link-local addresses, after resolving the name, without connecting', async () => {
    const publicOnly = { maxBytes: 1024, timeoutMs: 2000, ca: CERT };
    const port = new URL(images.url).port;
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]']) {
      expect((await copy(`https://${host}:${port}/a`, publicOnly)).copied).toBeNull();
    }
    expect(images.hits).toEqual([]);
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'])
      expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['::1', '::', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '2002:a00:1::1', 'ff02::1'])
      expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['183.3.226.35', '8.8.8.8', '2400:3200::1']) expect(isPublicAddress(address)).toBe(true);
  });
});
