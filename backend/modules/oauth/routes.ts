import crypto from 'node:crypto';
import { isUniqueViolation, type Database } from '../../db';
import { lockKeys } from '../../db/dialect';
import { usernameProblems } from '../../../shared/validation';
import { zh } from '../../../shared/chinese-text';
import { badGateway, badRequest, deadlineExceeded, unavailable, type ApiError } from '../../wire/errors';
import type { ConfigSnapshot } from '../../platform/config-store';
import {
  PROVIDER_LABELS,
  ProviderError,
  authorizeUrl,
  fetchIdentity,
  type OAuthProviderName,
  type ProviderApp,
  type ProviderIdentity,
} from '../../platform/oauth-providers';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { LoginReply } from '../../../shared/messages/user';
import {
  DynamicType,
  addDynamic,
  dynamicReward,
  createMember,
  findUserByUsername,
  getUser,
  recordLogin,
  updateProfile,
  withoutPassword,
  type UserRow,
} from '../user/service';
import { AuthorizeReply, AuthorizeRequest, OAuthLoginRequest } from '../../../shared/messages/oauth';
import { copyRemoteImage, insertAttachment, retireAttachments, type CopiedImage } from '../attachment/service';
import { findBinding, insertBinding, insertState, spendState, updateBinding, type Binding } from './store';

// OAuthAPI (ours, docs/api.md §5): WeChat and QQ sign-in, both PUBLIC. Authorize hands out a
// single-use state and the provider's page; Login spends the state, asks the provider who
// the visitor is, and signs in the user bound to that account, creating one on first visit.

const STATE_TTL_MS = 10 * 60 * 1000;
const MAX_CODE_LENGTH = 512;
const INVALID_STATE = '登录请求无效或已过期，请重新登录';
const USERNAME_BASE_LENGTH = 20;
/** docs/moredoc.md §12: an avatar's attachment type. */
const AVATAR_ATTACHMENT_TYPE = 1;

function providerOf(type: string): OAuthProviderName {
  if (type === 'wechat' || type === 'qq') return type;
  throw badRequest('不支持的第三方登录方式（参数 type 应为 wechat 或 qq）');
}

/** The provider's app credentials, or a 400 when the provider is off or not configured. */
function providerApp(cfg: ConfigSnapshot, provider: OAuthProviderName): ProviderApp {
  const label = PROVIDER_LABELS[provider];
  if (!cfg.bool('oauth', provider)) throw badRequest(zh`${label}登录未开启`);
  const secretKey = provider === 'wechat' ? 'wechat_app_secret' : 'qq_app_key';
  const app = { appId: cfg.str('oauth', `${provider}_app_id`).trim(), secret: cfg.str('oauth', secretKey).trim() };
  if (!app.appId || !app.secret) {
    throw badRequest(
      zh`${label}登录尚未配置 ${provider === 'wechat' ? 'AppID 和 AppSecret' : 'AppID 和 AppKey'}，请联系管理员`,
    );
  }
  return app;
}

/** `oauth.callback_url`, else `<system.domain>/oauth/callback`; always with `type=<provider>`. */
function redirectUriFor(cfg: ConfigSnapshot, provider: OAuthProviderName): string {
  const domain = cfg.siteOrigin();
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

/** The redirect_uri of a state that is good for this provider, spent by this call; else a 400. */
async function spendStateOr400(db: Database, state: string, provider: OAuthProviderName): Promise<string> {
  if (!state || state.length > 128) throw badRequest(INVALID_STATE);
  const redirectUri = await spendState(db, state, provider);
  if (redirectUri === undefined) throw badRequest(INVALID_STATE);
  return redirectUri;
}

/** The answer to a failed exchange; anything but a ProviderError is a bug and is rethrown (500). */
function providerFailure(ctx: RpcContext, provider: OAuthProviderName, error: unknown): ApiError {
  if (!(error instanceof ProviderError)) throw error;
  ctx.request.log.warn({ provider, failure: error.failure, detail: error.message }, 'oauth provider call failed');
  const label = PROVIDER_LABELS[provider];
  switch (error.failure) {
    case 'rejected-code':
      return badRequest(zh`${label}授权已失效或已被使用，请重新登录`);
    case 'rejected':
      return badGateway(zh`${label}登录服务拒绝了请求（错误码 ${error.providerCode ?? '未知'}），请联系管理员`);
    case 'timeout':
      return deadlineExceeded(zh`${label}登录服务响应超时，请稍后再试`);
    case 'unreachable':
      return badGateway(zh`无法连接${label}登录服务，请稍后再试`);
    case 'bad-answer':
      return badGateway(zh`${label}登录服务返回了无法识别的应答，请稍后再试`);
  }
}

/** The largest provider avatar copied (WeChat's and QQ's are tens of KB). */
const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/**
 * The address the provider's avatar is fetched from, '' when it names none. QQ still hands out http:// URLs; their
 * image hosts (qlogo.cn) serve https too, and only https is fetched, so http:// becomes https://.
 */
const avatarSource = (url: string) => url.trim().replace(/^http:\/\//i, 'https://');

/**
 * Does this sign-in copy the provider's avatar (`source`)? For a new member, and a bound one without an avatar; and
 * for one whose avatar is still the copy an earlier sign-in made, when the provider names another address now (the
 * member changed theirs there). Never over one the member set (docs/decisions/104-oauth-avatars-copied.md).
 */
function wantsAvatar(binding: Binding | undefined, userAvatar: string, source: string): boolean {
  if (!binding || !userAvatar) return true;
  return binding.avatar !== '' && userAvatar === binding.avatar && source !== '' && source !== binding.avatar_source;
}

/**
 * The provider's avatar copied to our storage (docs/decisions/104-oauth-avatars-copied.md), or null: the member then
 * keeps the avatar they have (the default one for a new member), never the provider's address.
 */
async function copyAvatar(ctx: RpcContext, value: string): Promise<CopiedImage | null> {
  if (!value) return null;
  const copied = await copyRemoteImage(ctx.app.blobs, ctx.db, value, {
    ...ctx.app.remoteImages,
    maxBytes: MAX_AVATAR_BYTES,
    timeoutMs: ctx.app.oauth.timeoutMs,
  });
  if (!copied) ctx.request.log.warn({ avatar: value.slice(0, 255) }, 'oauth avatar not copied');
  return copied;
}

/** The copied avatar as the member's, recorded as an uploaded avatar is (attachment type 1). */
async function keepAvatar(trx: Database, ctx: RpcContext, userId: number, avatar: CopiedImage): Promise<void> {
  await retireAttachments(trx, AVATAR_ATTACHMENT_TYPE, userId);
  await updateProfile(trx, userId, { avatar: avatar.path });
  await insertAttachment(trx, {
    hash: avatar.hash,
    user_id: userId,
    type_id: userId,
    type: AVATAR_ATTACHMENT_TYPE,
    path: avatar.path,
    name: `avatar${avatar.ext}`,
    size: avatar.size,
    width: avatar.width,
    height: avatar.height,
    ext: avatar.ext,
    ip: ctx.ip,
  });
}

/**
 * A free username from the nickname: spaces, invisible characters and `@` dropped; a suffix when too short, taken or a
 * phone number.
 */
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

/**
 * The bound user (login time and IP updated), or a new member bound to the identity; one
 * transaction, which the sign-ins of one provider account take in turns (so that two first
 * sign-ins at once make one member, the second finding the first one's binding).
 */
async function signInUser(
  ctx: RpcContext,
  cfg: ConfigSnapshot,
  provider: OAuthProviderName,
  identity: ProviderIdentity,
  avatar: { source: string; copy: CopiedImage } | null,
): Promise<UserRow> {
  const label = PROVIDER_LABELS[provider];
  return ctx.db.transaction().execute(async (trx) => {
    await lockKeys(trx, [`oauth:${provider}:${identity.openid}`]);
    const binding = await findBinding(trx, provider, identity.openid);
    let userId: number;
    if (binding) {
      userId = binding.user_id;
      // Asked again under the lock: another sign-in may have copied it, or the member set their own, meanwhile.
      const current = (await getUser(trx, userId)).avatar;
      const copied = avatar && wantsAvatar(binding, current, avatar.source) ? avatar : null;
      if (copied && copied.copy.path !== current) await keepAvatar(trx, ctx, userId, copied.copy);
      await updateBinding(
        trx,
        binding.id,
        identity.unionid || binding.unionid,
        copied ? { avatar_source: copied.source, avatar: copied.copy.path } : undefined,
      );
      await addDynamic(trx, userId, DynamicType.Login, zh`通过${label}登录`);
    } else {
      if (!cfg.bool('security', 'enable_register') || cfg.bool('security', 'is_close'))
        throw badRequest('系统未开放注册');
      const award = Math.max(cfg.int('score', 'register'), 0);
      const username = await uniqueUsername(trx, identity.nickname, provider);
      const user = await createMember(trx, {
        username,
        password: unusablePassword(),
        avatar: '',
        register_ip: ctx.ip,
        credit_count: award,
      });
      userId = user.id;
      if (avatar) await keepAvatar(trx, ctx, userId, avatar.copy);
      await insertBinding(trx, {
        provider,
        openid: identity.openid,
        unionid: identity.unionid,
        user_id: userId,
        ...(avatar ? { avatar_source: avatar.source, avatar: avatar.copy.path } : {}),
      });
      const reward = award > 0 ? `，${dynamicReward(award, cfg.creditName())}` : '';
      await addDynamic(trx, userId, DynamicType.Register, zh`通过${label}注册成为会员${reward}`);
    }
    await recordLogin(trx, userId, ctx.ip);
    return getUser(trx, userId);
  });
}

export const oauthService = defineService('OAuthAPI', [
  rpc('Authorize', {
    http: 'GET /api/v1/oauth/authorize',
    request: AuthorizeRequest,
    response: AuthorizeReply,
    auth: 'public',
    async handler(req, ctx) {
      const provider = providerOf(req.type);
      const cfg = await ctx.app.settings.snapshot();
      const app = providerApp(cfg, provider);
      const redirectUri = redirectUriFor(cfg, provider);
      const state = crypto.randomBytes(24).toString('base64url');
      await insertState(ctx.db, { state, provider, redirect_uri: redirectUri }, STATE_TTL_MS);
      return { url: authorizeUrl(provider, ctx.app.oauth[provider], app, redirectUri, state) };
    },
  }),

  rpc('Login', {
    http: 'POST /api/v1/oauth/login',
    request: OAuthLoginRequest,
    response: LoginReply,
    auth: 'public',
    async handler(req, ctx) {
      const provider = providerOf(req.type);
      const code = req.code.trim();
      if (!code || code.length > MAX_CODE_LENGTH) throw badRequest('授权码无效（参数 code）');
      const cfg = await ctx.app.settings.snapshot();
      const app = providerApp(cfg, provider);
      const redirectUri = await spendStateOr400(ctx.db, req.state, provider);
      let identity: ProviderIdentity;
      try {
        identity = await fetchIdentity(provider, ctx.app.oauth, app, code, redirectUri);
      } catch (error) {
        throw providerFailure(ctx, provider, error);
      }
      // Fetched outside the transaction, and only when the member would get it (wantsAvatar): never over one they set.
      const binding = await findBinding(ctx.db, provider, identity.openid);
      const source = avatarSource(identity.avatar);
      const copy =
        !binding || wantsAvatar(binding, (await getUser(ctx.db, binding.user_id)).avatar, source)
          ? await copyAvatar(ctx, source)
          : null;
      const avatar = copy && { source, copy };
      let user: UserRow;
      for (let attempt = 1; ; attempt += 1) {
        try {
          user = await signInUser(ctx, cfg, provider, identity, avatar);
          break;
        } catch (error) {
          // Another sign-in took the free username at the same moment: pick again.
          if (!isUniqueViolation(error) || attempt >= 3) throw error;
        }
      }
      const { token } = await ctx.app.tokens.issue(user.id);
      return { token, user: withoutPassword(user) };
    },
  }),
]);
