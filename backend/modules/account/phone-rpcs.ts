import crypto from 'node:crypto';
import { SMS_CODE_PURPOSES, type SmsCodePurpose } from '../../../shared/constants';
import {
  MOBILE_ALREADY_YOURS,
  MOBILE_TAKEN,
  cleanName,
  maskMobile,
  mobileProblems,
  normalizeMainlandMobile,
  passwordProblems,
  usernameProblems,
  USERNAME_TAKEN,
} from '../../../shared/validation';
import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { hashPassword } from '../../platform/auth/password';
import { rpc, type RpcContext } from '../../platform/rpc';
import { badRequest, conflict, notFound, unavailable } from '../../wire/errors';
import { assertValid, mapUnique } from '../../wire/request';
import { sendVerificationCode, spendCode } from '../sms/service';
import {
  DynamicType,
  addDynamic,
  dynamicReward,
  checkCaptcha,
  createMember,
  findUserByMobile,
  findUserByUsername,
  getUser,
  mobileTaken,
  recordLogin,
  setPassword,
  updateProfile,
  withoutPassword,
  type UserRow,
} from '../user/service';
import {
  BindMobileRequest,
  LoginReply,
  MobileFindPasswordRequest,
  MobileLoginReply,
  MobileLoginRequest,
  MobileRegisterRequest,
  SendSmsCodeReply,
  SendSmsCodeRequest,
} from '../../../shared/messages/user';

// UserAPI, ours (docs/api.md §6): the mobile-number flows. A code is sent by SendSmsCode and
// spent by the flow it was sent for. Whether a number has an account is told only after
// the right code, that is only to whoever holds the phone: sending answers the same
// either way.

const USERNAME_ATTEMPTS = 10;

function mobileOr400(input: string): string {
  const mobile = normalizeMainlandMobile(input);
  if (mobile) return mobile;
  throw badRequest(mobileProblems(input, true).join('；'));
}

function purposeOf(type: string): SmsCodePurpose {
  const purpose = SMS_CODE_PURPOSES.find((p) => p === type);
  if (!purpose) throw badRequest(`不支持的验证码用途（参数 type 应为 ${SMS_CODE_PURPOSES.join('、')}）`);
  return purpose;
}

function assertSmsEnabled(cfg: ConfigSnapshot): void {
  if (!cfg.bool('sms', 'enable')) throw unavailable('短信服务未启用，请联系管理员');
}

function assertRegistrationOpen(cfg: ConfigSnapshot): void {
  if (!cfg.bool('security', 'enable_register')) throw badRequest('系统未开放注册');
  if (cfg.bool('security', 'is_close')) throw badRequest('网站已关闭，暂时不允许注册');
}

const registrationOpen = (cfg: ConfigSnapshot) =>
  cfg.bool('security', 'enable_register') && !cfg.bool('security', 'is_close');

/**
 * Where registration is closed, a number without an account cannot sign in: said before a code is sent, or after it.
 */
const NO_ACCOUNT_CLOSED = '该手机号尚未注册，本站暂未开放注册';

/**
 * A member whose number a code verified, with the register credits and dynamic: RegisterByMobile,
 * and LoginByMobile for a number without an account while registration is open (the Chinese
 * convention 未注册手机号将自动注册). Without a password (SMS sign-in) the account gets a random
 * one that nobody knows; 找回密码 by the number sets one.
 */
async function createMobileMember(
  ctx: RpcContext,
  cfg: ConfigSnapshot,
  fields: { mobile: string; username?: string; password?: string },
): Promise<UserRow> {
  const username = fields.username || (await generatedUsername(ctx.db));
  const password = await hashPassword(
    fields.password || crypto.randomBytes(24).toString('base64url'),
    ctx.app.passwordCost,
  );
  const award = Math.max(cfg.int('score', 'register'), 0);
  return mapUnique(
    ctx.db.transaction().execute(async (trx) => {
      const inserted = await createMember(trx, {
        username,
        password,
        mobile: fields.mobile,
        register_ip: ctx.ip,
        last_login_ip: ctx.ip,
        login_at: new Date().toISOString(),
        credit_count: award,
      });
      const credits = award > 0 ? `，${dynamicReward(award, cfg.creditName())}` : '';
      await addDynamic(trx, inserted.id, DynamicType.Register, `通过手机号注册成为会员${credits}`);
      return inserted;
    }),
    '用户名或手机号已被注册',
  );
}

/** A free `手机用户` and six random digits, for members who register without a name (they sign in by number). */
async function generatedUsername(db: Database): Promise<string> {
  for (let i = 0; i < USERNAME_ATTEMPTS; i += 1) {
    const candidate = `手机用户${crypto.randomInt(100_000, 1_000_000)}`;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  throw unavailable('无法生成可用的用户名，请填写用户名后重试');
}

export const phoneRpcs = [
  rpc('SendSmsCode', {
    http: 'POST /api/v1/user/sms/code',
    request: SendSmsCodeRequest,
    response: SendSmsCodeReply,
    auth: 'public',
    async handler(req, ctx) {
      const purpose = purposeOf(req.type);
      const mobile = mobileOr400(req.mobile);
      const cfg = await ctx.app.settings.snapshot();
      assertSmsEnabled(cfg);
      if (purpose === 'register') assertRegistrationOpen(cfg);
      if (purpose === 'bind') {
        const me = await getUser(ctx.db, ctx.requireUser().id);
        if (me.mobile === mobile) throw badRequest(MOBILE_ALREADY_YOURS);
      }
      // Fails early (503) when the provider is not configured, before the captcha is spent.
      await ctx.app.sms.provider();
      await checkCaptcha(ctx, 'sms', req.captcha_id, req.captcha, true);
      // A login code for a number that could neither sign in nor register is never texted; this
      // says which numbers have accounts, but only while registration is closed and only behind
      // the captcha and the rate limits.
      if (purpose === 'login' && !registrationOpen(cfg) && !(await findUserByMobile(ctx.db, mobile)))
        throw notFound(NO_ACCOUNT_CLOSED);
      return sendVerificationCode(ctx.app, { mobile, purpose, ip: ctx.ip });
    },
  }),

  rpc('RegisterByMobile', {
    http: 'POST /api/v1/user/register/mobile',
    request: MobileRegisterRequest,
    response: LoginReply,
    auth: 'public',
    async handler(req, ctx) {
      const cfg = await ctx.app.settings.snapshot();
      assertRegistrationOpen(cfg);
      assertSmsEnabled(cfg);
      const mobile = mobileOr400(req.mobile);
      const chosen = cleanName(req.username);
      assertValid([...(req.username ? usernameProblems(chosen) : []), ...passwordProblems(req.password)]);
      if (chosen && (await findUserByUsername(ctx.db, chosen))) throw conflict(USERNAME_TAKEN);
      await spendCode(ctx.db, mobile, 'register', req.code);
      if (await findUserByMobile(ctx.db, mobile)) throw conflict('该手机号已注册，请直接登录');
      const user = await createMobileMember(ctx, cfg, { mobile, username: chosen, password: req.password });
      const { token } = await ctx.app.tokens.issue(user.id);
      return { token, user: withoutPassword(user) };
    },
  }),

  rpc('LoginByMobile', {
    http: 'POST /api/v1/user/login/mobile',
    request: MobileLoginRequest,
    response: MobileLoginReply,
    auth: 'public',
    async handler(req, ctx) {
      const cfg = await ctx.app.settings.snapshot();
      assertSmsEnabled(cfg);
      const mobile = mobileOr400(req.mobile);
      await spendCode(ctx.db, mobile, 'login', req.code);
      const user = await findUserByMobile(ctx.db, mobile);
      if (!user) {
        if (!registrationOpen(cfg)) throw notFound(NO_ACCOUNT_CLOSED);
        const created = await createMobileMember(ctx, cfg, { mobile });
        const { token } = await ctx.app.tokens.issue(created.id);
        return { token, user: withoutPassword(created), registered: true };
      }
      await ctx.db.transaction().execute(async (trx) => {
        await recordLogin(trx, user.id, ctx.ip);
        await addDynamic(trx, user.id, DynamicType.Login, '通过手机验证码登录');
      });
      const { token } = await ctx.app.tokens.issue(user.id);
      return { token, user: withoutPassword(await getUser(ctx.db, user.id)) };
    },
  }),

  rpc('FindPasswordByMobile', {
    http: 'PUT /api/v1/user/findpassword/mobile',
    request: MobileFindPasswordRequest,
    auth: 'public',
    async handler(req, ctx) {
      assertSmsEnabled(await ctx.app.settings.snapshot());
      const mobile = mobileOr400(req.mobile);
      assertValid(passwordProblems(req.password, '新密码'));
      await spendCode(ctx.db, mobile, 'find_password', req.code);
      const user = await findUserByMobile(ctx.db, mobile);
      if (!user) throw notFound('该手机号未绑定任何账号');
      const password = await hashPassword(req.password, ctx.app.passwordCost);
      await ctx.db.transaction().execute(async (trx) => {
        await setPassword(trx, user.id, password);
        await addDynamic(trx, user.id, DynamicType.Password, '通过手机验证码找回了密码');
      });
      return {};
    },
  }),

  rpc('BindMobile', {
    http: 'PUT /api/v1/user/mobile',
    request: BindMobileRequest,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      assertSmsEnabled(await ctx.app.settings.snapshot());
      const mobile = mobileOr400(req.mobile);
      if ((await getUser(ctx.db, me.id)).mobile === mobile) throw badRequest(MOBILE_ALREADY_YOURS);
      await spendCode(ctx.db, mobile, 'bind', req.code);
      if (await mobileTaken(ctx.db, mobile, me.id)) throw conflict(MOBILE_TAKEN);
      await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          await updateProfile(trx, me.id, { mobile });
          await addDynamic(trx, me.id, DynamicType.Profile, `绑定了手机号 ${maskMobile(mobile)}`);
        }),
        MOBILE_TAKEN,
      );
      return {};
    },
  }),
];
