// A stand-in for WeChat and QQ on 127.0.0.1 port 0: their authorize pages (which sign the
// visitor in at once and redirect back with a code) and the API calls the backend makes.
// `env` points a backend at it through the OAUTH_* variables.
import crypto from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Provider = 'wechat' | 'qq';

export interface Identity {
  openid: string;
  unionid?: string;
  nickname?: string;
  avatar?: string;
}

/**
 * How the provider APIs misbehave (null: they work):
 * `refuse-app` an error about our app id/secret, `http-500`, `not-json`, `hang` (no answer),
 * `reset` (connection dropped).
 */
export type Fault = 'refuse-app' | 'http-500' | 'not-json' | 'hang' | 'reset' | null;

export interface RecordedCall {
  provider: Provider;
  path: string;
  query: URLSearchParams;
}

export const STUB_APPS = {
  wechat: { appId: 'wx0123456789abcdef', secret: 'wechat-test-secret' },
  qq: { appId: '101234567', secret: 'qq-test-app-key' },
} as const;

export interface OAuthProviderStub {
  url: string;
  /** OAUTH_<P>_AUTHORIZE_URL / OAUTH_<P>_API_URL pointing at this stub */
  env: Record<string, string>;
  /** CONFIG_OAUTH_* presets that switch both providers on with the stub's app credentials */
  settingsEnv: Record<string, string>;
  /** API calls received, oldest first */
  calls: RecordedCall[];
  /** A code as if `identity` had just allowed the sign-in. */
  issueCode(provider: Provider, identity: Identity): string;
  /** Who the authorize pages sign in. */
  nextIdentity: Record<Provider, Identity>;
  fault: Fault;
  /**
   * Holds the next `count` answers of the calls that say who the visitor is (WeChat's userinfo,
   * QQ's get_user_info) until all of them are asked, then gives them at once: sign-ins started
   * together reach the backend's own work together.
   */
  holdIdentities(count: number): void;
  close(): Promise<void>;
}

function json(res: ServerResponse, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startOAuthProvider(): Promise<OAuthProviderStub> {
  const codes = new Map<string, { provider: Provider; identity: Identity; used: boolean }>();
  const tokens = new Map<string, { provider: Provider; identity: Identity }>();
  const calls: RecordedCall[] = [];
  const held = { count: 0, waiting: [] as (() => void)[] };
  /** Answers now, or once `held.count` identity calls wait. */
  const answerIdentity = (answer: () => void) => {
    if (held.count === 0) return answer();
    held.waiting.push(answer);
    if (held.waiting.length < held.count) return;
    const release = held.waiting;
    held.count = 0;
    held.waiting = [];
    for (const next of release) next();
  };

  const issueCode = (provider: Provider, identity: Identity) => {
    const code = `${provider}-code-${crypto.randomBytes(8).toString('hex')}`;
    codes.set(code, { provider, identity, used: false });
    return code;
  };
  const spendCode = (provider: Provider, code: string | null) => {
    const entry = code ? codes.get(code) : undefined;
    if (!entry || entry.used || entry.provider !== provider) return undefined;
    entry.used = true;
    const accessToken = `${provider}-token-${crypto.randomBytes(8).toString('hex')}`;
    tokens.set(accessToken, { provider, identity: entry.identity });
    return accessToken;
  };
  const holder = (provider: Provider, token: string | null) => {
    const entry = token ? tokens.get(token) : undefined;
    return entry?.provider === provider ? entry.identity : undefined;
  };

  const stub: OAuthProviderStub = {
    url: '',
    env: {},
    settingsEnv: {
      CONFIG_OAUTH_WECHAT: 'true',
      CONFIG_OAUTH_WECHAT_APP_ID: STUB_APPS.wechat.appId,
      CONFIG_OAUTH_WECHAT_APP_SECRET: STUB_APPS.wechat.secret,
      CONFIG_OAUTH_QQ: 'true',
      CONFIG_OAUTH_QQ_APP_ID: STUB_APPS.qq.appId,
      CONFIG_OAUTH_QQ_APP_KEY: STUB_APPS.qq.secret,
    },
    calls,
    issueCode,
    nextIdentity: {
      wechat: {
        openid: 'o_browser_wechat_0001',
        nickname: '微信读者',
        avatar: 'https://thirdwx.qlogo.cn/mmopen/browser/132',
      },
      qq: {
        openid: 'B0A1C2D3E4F5061728394A5B6C7D8E9F',
        nickname: 'QQ读者',
        avatar: 'https://thirdqq.qlogo.cn/g?b=oidb&k=browser&s=100',
      },
    },
    fault: null,
    holdIdentities(count) {
      held.count = count;
      held.waiting = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** The authorize pages: sign `nextIdentity` in and go back with code and state. */
  function authorizePage(res: ServerResponse, provider: Provider, query: URLSearchParams): void {
    const appId = query.get(provider === 'wechat' ? 'appid' : 'client_id');
    const redirectUri = query.get('redirect_uri');
    if (appId !== STUB_APPS[provider].appId || !redirectUri || query.get('response_type') !== 'code') {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('bad authorize request');
      return;
    }
    const back = new URL(redirectUri);
    back.searchParams.set('code', issueCode(provider, stub.nextIdentity[provider]));
    back.searchParams.set('state', query.get('state') ?? '');
    res.writeHead(302, { location: back.toString() }).end();
  }

  function wechatApi(res: ServerResponse, path: string, query: URLSearchParams): void {
    if (path === '/sns/oauth2/access_token') {
      const app = STUB_APPS.wechat;
      if (stub.fault === 'refuse-app' || query.get('appid') !== app.appId || query.get('secret') !== app.secret) {
        json(res, { errcode: 40125, errmsg: 'invalid appsecret, rid: 0' }, 'text/plain');
        return;
      }
      const accessToken =
        query.get('grant_type') === 'authorization_code' ? spendCode('wechat', query.get('code')) : undefined;
      if (!accessToken) {
        json(res, { errcode: 40029, errmsg: 'invalid code, rid: 0' }, 'text/plain');
        return;
      }
      const identity = holder('wechat', accessToken)!;
      json(
        res,
        {
          access_token: accessToken,
          expires_in: 7200,
          refresh_token: 'refresh',
          openid: identity.openid,
          scope: 'snsapi_login',
          ...(identity.unionid ? { unionid: identity.unionid } : {}),
        },
        'text/plain',
      );
      return;
    }
    if (path === '/sns/userinfo') {
      const identity = holder('wechat', query.get('access_token'));
      if (!identity || identity.openid !== query.get('openid')) {
        json(res, { errcode: 40001, errmsg: 'invalid credential' }, 'text/plain');
        return;
      }
      json(
        res,
        {
          openid: identity.openid,
          nickname: identity.nickname ?? '',
          sex: 0,
          province: '',
          city: '',
          country: '',
          headimgurl: identity.avatar ?? '',
          privilege: [],
          ...(identity.unionid ? { unionid: identity.unionid } : {}),
        },
        'text/plain',
      );
      return;
    }
    json(res, { errcode: 40066, errmsg: 'invalid url' });
  }

  function qqApi(res: ServerResponse, path: string, query: URLSearchParams): void {
    const app = STUB_APPS.qq;
    if (path === '/oauth2.0/token') {
      if (
        stub.fault === 'refuse-app' ||
        query.get('client_id') !== app.appId ||
        query.get('client_secret') !== app.secret
      ) {
        json(res, { error: 100009, error_description: 'client secret is illegal' });
        return;
      }
      const accessToken =
        query.get('grant_type') === 'authorization_code' && query.get('redirect_uri')
          ? spendCode('qq', query.get('code'))
          : undefined;
      if (!accessToken) {
        json(res, { error: 100019, error_description: 'code to access token error' });
        return;
      }
      json(res, { access_token: accessToken, expires_in: '7776000', refresh_token: 'refresh' });
      return;
    }
    if (path === '/oauth2.0/me') {
      const identity = holder('qq', query.get('access_token'));
      if (!identity) {
        json(res, { error: 100016, error_description: 'access token check failed' });
        return;
      }
      json(res, { client_id: app.appId, openid: identity.openid });
      return;
    }
    if (path === '/user/get_user_info') {
      const identity = holder('qq', query.get('access_token'));
      if (!identity || query.get('oauth_consumer_key') !== app.appId || query.get('openid') !== identity.openid) {
        json(res, { ret: -1, msg: 'client request params is not valid' });
        return;
      }
      json(res, {
        ret: 0,
        msg: '',
        is_lost: 0,
        nickname: identity.nickname ?? '',
        gender: '男',
        figureurl_qq_1: identity.avatar ? `${identity.avatar}-40` : '',
        figureurl_qq_2: identity.avatar ?? '',
      });
      return;
    }
    json(res, { ret: -1, msg: 'unknown api' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const [, area = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (area === 'wechat' && path === '/connect/qrconnect') return authorizePage(res, 'wechat', url.searchParams);
    if (area === 'qq' && path === '/oauth2.0/authorize') return authorizePage(res, 'qq', url.searchParams);
    const provider: Provider | undefined = area === 'wechat-api' ? 'wechat' : area === 'qq-api' ? 'qq' : undefined;
    if (!provider) {
      res.writeHead(404).end();
      return;
    }
    calls.push({ provider, path, query: url.searchParams });
    switch (stub.fault) {
      case 'hang':
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'http-500':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>500 Internal Server Error</h1>');
        return;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      default:
        break;
    }
    const answer = () =>
      provider === 'wechat' ? wechatApi(res, path, url.searchParams) : qqApi(res, path, url.searchParams);
    if (path === '/sns/userinfo' || path === '/user/get_user_info') answerIdentity(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stub.url = `http://127.0.0.1:${port}`;
  stub.env = {
    OAUTH_WECHAT_AUTHORIZE_URL: `${stub.url}/wechat`,
    OAUTH_WECHAT_API_URL: `${stub.url}/wechat-api`,
    OAUTH_QQ_AUTHORIZE_URL: `${stub.url}/qq`,
    OAUTH_QQ_API_URL: `${stub.url}/qq-api`,
  };
  return stub;
}
