// The two social sign-in providers as HTTP APIs: where to send the browser, and how to turn
// the callback's code into who the visitor is. Base URLs come from OAuthConfig (env), so
// tests and egress proxies can stand in for the real hosts.

export type OAuthProviderName = 'wechat' | 'qq';

/** Base URLs (origin plus optional path prefix, no trailing slash) of one provider. */
export interface OAuthProviderEndpoints {
  /** the page the browser is sent to (OAUTH_<P>_AUTHORIZE_URL) */
  authorizeUrl: string;
  /** the API the backend calls (OAUTH_<P>_API_URL) */
  apiUrl: string;
}

export interface OAuthConfig {
  wechat: OAuthProviderEndpoints;
  qq: OAuthProviderEndpoints;
  /** OAUTH_TIMEOUT_MS: limit of each call to a provider's API. */
  timeoutMs: number;
}

export const PROVIDER_LABELS: Record<OAuthProviderName, string> = { wechat: '微信', qq: 'QQ' };

/** The site's app at the provider (WeChat AppID/AppSecret, QQ AppID/AppKey). */
export interface ProviderApp {
  appId: string;
  secret: string;
}

export interface ProviderIdentity {
  openid: string;
  /** WeChat only (when the app belongs to an open-platform account); else '' */
  unionid: string;
  nickname: string;
  /** the provider's image URL as given, possibly '' */
  avatar: string;
}

/**
 * - `rejected-code`: the provider refused the authorisation code (invalid, expired, reused)
 * - `rejected`: the provider refused anything else (our app id/secret, its own trouble)
 * - `unreachable`, `timeout`: no answer
 * - `bad-answer`: an answer we cannot read (HTTP error, not JSON, fields missing)
 */
export type ProviderFailure = 'rejected-code' | 'rejected' | 'unreachable' | 'timeout' | 'bad-answer';

export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    readonly providerCode?: number,
  ) {
    super(message);
  }
}

const MAX_ANSWER_BYTES = 256 * 1024;
const OPENID = /^[\w-]{1,128}$/;
// Error codes that mean "this code is no good", as opposed to a problem with our app.
const WECHAT_CODE_ERRORS = new Set([40029, 40163, 41008]);
const QQ_CODE_ERRORS = new Set([100005, 100018, 100019, 100020]);

function withQuery(base: string, path: string, query: Record<string, string>): string {
  return `${base}${path}?${new URLSearchParams(query).toString()}`;
}

/** The page that asks the visitor to allow the sign-in (WeChat: QR code; QQ: its login page). */
export function authorizeUrl(
  provider: OAuthProviderName,
  endpoints: OAuthProviderEndpoints,
  app: ProviderApp,
  redirectUri: string,
  state: string,
): string {
  if (provider === 'wechat') {
    const query = { appid: app.appId, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_login', state };
    return `${withQuery(endpoints.authorizeUrl, '/connect/qrconnect', query)}#wechat_redirect`;
  }
  return withQuery(endpoints.authorizeUrl, '/oauth2.0/authorize', {
    response_type: 'code',
    client_id: app.appId,
    redirect_uri: redirectUri,
    state,
  });
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new ProviderError('bad-answer', `answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET a provider API and parse its JSON (whatever the content type says: WeChat answers
 * text/plain). QQ's older JSONP form `callback( {...} );` is unwrapped too.
 */
async function getJson(url: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const response = await fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/json' } });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new ProviderError('bad-answer', `HTTP ${response.status}`);
    }
    text = await readBounded(response);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (signal.aborted) throw new ProviderError('timeout', 'no answer in time');
    throw new ProviderError(
      'unreachable',
      error instanceof Error
        ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
        : String(error),
    );
  }
  const unwrapped = text.trim().replace(/^callback\(\s*([\s\S]*?)\s*\);?$/, '$1');
  try {
    const body: unknown = JSON.parse(unwrapped);
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ProviderError('bad-answer', `not a JSON object: ${text.slice(0, 200)}`);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function requireOpenid(value: unknown): string {
  const openid = str(value);
  if (!OPENID.test(openid)) throw new ProviderError('bad-answer', 'openid missing or malformed');
  return openid;
}

function requireToken(body: Record<string, unknown>): string {
  const token = str(body.access_token);
  if (!token) throw new ProviderError('bad-answer', 'access_token missing');
  return token;
}

/** WeChat's `{errcode, errmsg}` failure shape (errcode 0 or absent = success). */
function checkWechat(body: Record<string, unknown>, codeStep: boolean): void {
  const errcode = typeof body.errcode === 'number' ? body.errcode : 0;
  if (errcode === 0) return;
  const failure = codeStep && WECHAT_CODE_ERRORS.has(errcode) ? 'rejected-code' : 'rejected';
  throw new ProviderError(failure, `errcode ${errcode}: ${str(body.errmsg)}`, errcode);
}

/** QQ's failure shapes: `{error, error_description}` (oauth2.0) and `{ret, msg}` (user API). */
function checkQQ(body: Record<string, unknown>, codeStep: boolean): void {
  const error = Number(body.error ?? 0) || Number(body.ret ?? 0);
  if (!error) return;
  const failure = codeStep && QQ_CODE_ERRORS.has(error) ? 'rejected-code' : 'rejected';
  throw new ProviderError(failure, `error ${error}: ${str(body.error_description) || str(body.msg)}`, error);
}

async function wechatIdentity(
  api: string,
  app: ProviderApp,
  code: string,
  signal: AbortSignal,
): Promise<ProviderIdentity> {
  const token = await getJson(
    withQuery(api, '/sns/oauth2/access_token', {
      appid: app.appId,
      secret: app.secret,
      code,
      grant_type: 'authorization_code',
    }),
    signal,
  );
  checkWechat(token, true);
  const accessToken = requireToken(token);
  const openid = requireOpenid(token.openid);
  const info = await getJson(withQuery(api, '/sns/userinfo', { access_token: accessToken, openid }), signal);
  checkWechat(info, false);
  const unionid = str(token.unionid) || str(info.unionid);
  return {
    openid,
    unionid: OPENID.test(unionid) ? unionid : '',
    nickname: str(info.nickname),
    avatar: str(info.headimgurl),
  };
}

async function qqIdentity(
  api: string,
  app: ProviderApp,
  code: string,
  redirectUri: string,
  signal: AbortSignal,
): Promise<ProviderIdentity> {
  const token = await getJson(
    withQuery(api, '/oauth2.0/token', {
      grant_type: 'authorization_code',
      client_id: app.appId,
      client_secret: app.secret,
      code,
      redirect_uri: redirectUri,
      fmt: 'json',
    }),
    signal,
  );
  checkQQ(token, true);
  const accessToken = requireToken(token);
  const me = await getJson(withQuery(api, '/oauth2.0/me', { access_token: accessToken, fmt: 'json' }), signal);
  checkQQ(me, false);
  const openid = requireOpenid(me.openid);
  const info = await getJson(
    withQuery(api, '/user/get_user_info', { access_token: accessToken, oauth_consumer_key: app.appId, openid }),
    signal,
  );
  checkQQ(info, false);
  return {
    openid,
    unionid: '',
    nickname: str(info.nickname),
    avatar: str(info.figureurl_qq_2) || str(info.figureurl_qq_1),
  };
}

/**
 * Exchanges the callback's code for the visitor's identity. `redirectUri` must be the one
 * of the authorize step (QQ checks it). All calls together get `config.timeoutMs`.
 */
export function fetchIdentity(
  provider: OAuthProviderName,
  config: OAuthConfig,
  app: ProviderApp,
  code: string,
  redirectUri: string,
): Promise<ProviderIdentity> {
  const signal = AbortSignal.timeout(config.timeoutMs);
  return provider === 'wechat'
    ? wechatIdentity(config.wechat.apiUrl, app, code, signal)
    : qqIdentity(config.qq.apiUrl, app, code, redirectUri, signal);
}
