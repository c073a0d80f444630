import crypto from 'node:crypto';
import type { Database } from '../../db';
import { now } from '../../db/schema';
import type { ConfigSnapshot } from '../../platform/config-store';
import {
  PROVIDER_LABELS, ProviderError, type OAuthProviderName, authorizeUrl, fetchIdentity, type ProviderApp, type ProviderIdentity,
} from '../../platform/oauth-providers';
import { badGateway, badRequest, deadlineExceeded, unavailable, type ApiError } from '../../wire/errors';
import { message } from '../../wire/message';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { LoginReply } from '../user/account-rpcs';
import {
  DynamicType, addDynamic, defaultGroupId, findUserByUsername, refreshGroupCounts, withoutPassword, type UserRow,
} from '../user/store';
import { usernameProblems } from '../../../shared/validation';

// OAuthAPI (ours, docs/api.md §5): WeChat and QQ sign-in, both PUBLIC. Authorize hands out a
// single-use state and the provider's page; Login spends the state, asks the provider who
// the visitor is, and signs in the user bound to that account, creating one on first visit.

const AuthorizeRequest = message('OAuthAuthorizeRequest', { type: 'string' });
const AuthorizeReply = message('OAuthAuthorizeReply', { url: 'string' });
const OAuthLoginRequest = message('OAuthLoginRequest', { type: 'string', code: 'string', state: 'string' });

const STATE_TTL_MS = 10 * 60 * 1000;
const MAX_CODE_LENGTH = 512;
export const INVALID_STATE = '登录请求无效或已过期，请重新登录';
const USERNAME_BASE_LENGTH = 20;

function providerOf(type: string): OAuthProviderName {
  if (type === 'wechat' || type === 'qq') return type;
  throw badRequest('不支持的第三方登录方式（参数 type 应为 wechat 或 qq）');
}

/** The provider's app credentials, or a 400 when the provider is off or not configured. */
function providerApp(cfg: ConfigSnapshot, provider: OAuthProviderName): ProviderApp {
  const label = PROVIDER_LABELS[provider];
  if (!cfg.bool('oauth', provider)) throw badRequest(`${label}登录未开启`);
  const secretKey = provider === 'wechat' ? 'wechat_app_secret' : 'qq_app_key';
  const app = { appId: cfg.str('oauth', `${provider}_app_id`).trim(), secret: cfg.str('oauth', secretKey).trim() };
  if (!app.appId || !app.secret) {
    throw badRequest(`${label}登录尚未配置 ${provider === 'wechat' ? 'AppID 和 AppSecret' : 'AppID 和 AppKey'}，请联系管理员`);
  }
  return app;
}

/** `oauth.callback_url`, else `<system.domain>/oauth/callback`; always with `type=<provider>`. */
function redirectUriFor(cfg: ConfigSnapshot, provider: OAuthProviderName): string {
  const domain = cfg.str('system', 'domain').trim().replace(/\/+$/, '');
  const base = cfg.str('oauth', 'callback_url').trim() || (domain ? `${domain}/oauth/callback` : '');
  if (!base) throw badRequest('尚未配置网站域名或登录回调地址，请联系管理员');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw badRequest('登录回调地址无效，请联系管理员');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('登录回调地址无效，请联系管理员');
  url.hash = '';
  url.searchParams.set('type', provider);
  return url.toString();
}

/**
 * Marks the state used if it is known, unused, unexpired and for this provider, and gives
 * its redirect_uri. One UPDATE, so of two requests with the same state only one gets through.
 */
async function spendState(db: Database, state: string, provider: OAuthProviderName): Promise<string> {
  if (!state || state.length > 128) throw badRequest(INVALID_STATE);
  const ts = now();
  const row = await db.updateTable('oauth_state').set({ used_at: ts })
    .where('state', '=', state).where('provider', '=', provider).where('used_at', 'is', null).where('expires_at', '>', ts)
    .returning('redirect_uri').executeTakeFirst();
  if (!row) throw badRequest(INVALID_STATE);
  return row.redirect_uri;
}

/** The answer to a failed exchange; anything but a ProviderError is a bug and is rethrown (500). */
function providerFailure(ctx: RpcContext, provider: OAuthProviderName, error: unknown): ApiError {
  if (!(error instanceof ProviderError)) throw error;
  ctx.request.log.warn({ provider, failure: error.failure, detail: error.message }, 'oauth provider call failed');
  const label = PROVIDER_LABELS[provider];
  switch (error.failure) {
    case 'rejected-code': return badRequest(`${label}授权已失效或已被使用，请重新登录`);
    case 'rejected': return badGateway(`${label}登录服务拒绝了请求（错误码 ${error.providerCode ?? '未知'}），请联系管理员`);
    case 'timeout': return deadlineExceeded(`${label}登录服务响应超时，请稍后再试`);
    case 'unreachable': return badGateway(`无法连接${label}登录服务，请稍后再试`);
    case 'bad-answer': return badGateway(`${label}登录服务返回了无法识别的应答，请稍后再试`);
  }
}

/**
 * The provider's avatar when it passes our avatar rule (http(s), at most 255 characters),
 * else none. QQ still hands out http:// URLs; their image hosts (qlogo.cn) serve https too,
 * and the site's CSP loads images over https only, so http:// becomes https://.
 */
function avatarFrom(url: string): string {
  const value = url.trim().replace(/^http:\/\//i, 'https://');
  return value.length <= 255 && /^https:\/\/[\x21-\x7e]+$/i.test(value) ? value : '';
}

/** A free username from the nickname: spaces, invisible characters and `@` dropped; a suffix when too short, taken or a phone number. */
async function uniqueUsername(db: Database, nickname: string, provider: OAuthProviderName): Promise<string> {
  const cleaned = [...nickname.normalize('NFC').replace(/[\s\p{C}@]/gu, '')].slice(0, USERNAME_BASE_LENGTH).join('');
  const base = cleaned || `${PROVIDER_LABELS[provider]}用户`;
  const candidates = [
    base,
    ...Array.from({ length: 5 }, () => `${base}_${crypto.randomInt(1000, 10000)}`),
    ...Array.from({ length: 5 }, () => `${base}_${crypto.randomBytes(4).toString('hex')}`),
  ];
  for (const candidate of candidates) {
    if (usernameProblems(candidate).length === 0 && !(await findUserByUsername(db, candidate))) return candidate;
  }
  throw unavailable('无法生成可用的用户名，请稍后再试');
}

/** Not a hash any password verifies against: social accounts sign in through their provider only. */
const unusablePassword = () => `oauth$${crypto.randomBytes(24).toString('base64url')}`;

/** The bound user (login time and IP updated), or a new member bound to the identity; one transaction. */
async function signInUser(ctx: RpcContext, cfg: ConfigSnapshot, provider: OAuthProviderName, identity: ProviderIdentity): Promise<UserRow> {
  const label = PROVIDER_LABELS[provider];
  return ctx.db.transaction().execute(async (trx) => {
    const ts = now();
    const binding = await trx.selectFrom('oauth_binding').select(['id', 'user_id', 'unionid'])
      .where('provider', '=', provider).where('openid', '=', identity.openid).executeTakeFirst();
    let userId: number;
    if (binding) {
      userId = binding.user_id;
      await trx.updateTable('oauth_binding').set({ unionid: identity.unionid || binding.unionid, updated_at: ts }).where('id', '=', binding.id).execute();
      await addDynamic(trx, userId, DynamicType.Login, `通过${label}登录`);
    } else {
      if (!cfg.bool('security', 'enable_register') || cfg.bool('security', 'is_close')) throw badRequest('系统未开放注册');
      const groupId = await defaultGroupId(trx);
      const award = Math.max(cfg.int('score', 'register'), 0);
      const username = await uniqueUsername(trx, identity.nickname, provider);
      const user = await trx.insertInto('user').values({
        username, password: unusablePassword(), avatar: avatarFrom(identity.avatar),
        register_ip: ctx.ip, credit_count: award, created_at: ts, updated_at: ts,
      }).returning('id').executeTakeFirstOrThrow();
      userId = user.id;
      await trx.insertInto('user_group').values({ user_id: userId, group_id: groupId, created_at: ts, updated_at: ts }).execute();
      await refreshGroupCounts(trx, [groupId]);
      await trx.insertInto('oauth_binding').values({
        provider, openid: identity.openid, unionid: identity.unionid, user_id: userId, created_at: ts, updated_at: ts,
      }).execute();
      const reward = award > 0 ? `，获得 ${award} ${cfg.str('score', 'credit_name') || '魔豆'}奖励` : '';
      await addDynamic(trx, userId, DynamicType.Register, `通过${label}注册成为会员${reward}`);
    }
    await trx.updateTable('user').set({ login_at: ts, last_login_ip: ctx.ip }).where('id', '=', userId).execute();
    return trx.selectFrom('user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  });
}

export const oauthService = defineService('OAuthAPI', [
  rpc('Authorize', {
    http: 'GET /api/v1/oauth/authorize', request: AuthorizeRequest, response: AuthorizeReply, auth: 'public',
    async handler(req, ctx) {
      const provider = providerOf(req.type);
      const cfg = await ctx.app.settings.snapshot();
      const app = providerApp(cfg, provider);
      const redirectUri = redirectUriFor(cfg, provider);
      const state = crypto.randomBytes(24).toString('base64url');
      const issued = new Date();
      // Spent and expired states are useless; dropping them here keeps the table small.
      await ctx.db.deleteFrom('oauth_state').where('expires_at', '<=', issued.toISOString()).execute();
      await ctx.db.insertInto('oauth_state').values({
        state, provider, redirect_uri: redirectUri, expires_at: new Date(issued.getTime() + STATE_TTL_MS).toISOString(), created_at: issued.toISOString(),
      }).execute();
      return { url: authorizeUrl(provider, ctx.app.oauth[provider], app, redirectUri, state) };
    },
  }),

  rpc('Login', {
    http: 'POST /api/v1/oauth/login', request: OAuthLoginRequest, response: LoginReply, auth: 'public',
    async handler(req, ctx) {
      const provider = providerOf(req.type);
      const code = req.code.trim();
      if (!code || code.length > MAX_CODE_LENGTH) throw badRequest('授权码无效（参数 code）');
      const cfg = await ctx.app.settings.snapshot();
      const app = providerApp(cfg, provider);
      const redirectUri = await spendState(ctx.db, req.state, provider);
      let identity: ProviderIdentity;
      try {
        identity = await fetchIdentity(provider, ctx.app.oauth, app, code, redirectUri);
      } catch (error) {
        throw providerFailure(ctx, provider, error);
      }
      const user = await signInUser(ctx, cfg, provider, identity);
      const { token } = await ctx.app.tokens.issue(user.id);
      return { token, user: withoutPassword(user) };
    },
  }),
]);
