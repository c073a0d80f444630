import { addressKey } from '../../../shared/address-key';
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import {
  EMAIL_TAKEN,
  PASSWORD_LENGTH,
  USERNAME_TAKEN,
  cleanName,
  emailProblems,
  normalizeMainlandMobile,
  passwordProblems,
  usernameProblems,
} from '../../../shared/validation';
import { EMAIL_CODE_MAX_ATTEMPTS } from '../../../shared/constants';
import { databaseNow, lockKeys } from '../../db/dialect';
import { badRequest, conflict, notFound, tooManyRequests, unavailable } from '../../wire/errors';
import { assertValid, clamp, mapUnique } from '../../wire/request';
import { hashPassword, verifyPassword } from '../../platform/auth/password';
import { revokeToken } from '../../platform/auth/session';
import { linkKey } from '../../platform/auth/secrets';
import { bearerFromHeader } from '../../platform/auth/tokens';
import { rpc, type RpcContext } from '../../platform/rpc';
import {
  CAPTCHA_KINDS,
  DynamicType,
  addDynamic,
  dynamicReward,
  checkCaptcha,
  createMember,
  emailTaken,
  findUserByEmail,
  findUserByMobile,
  findUserBySignInEmail,
  findUserByUsername,
  recordLogin,
  replacePassword,
  withoutPassword,
} from '../user/service';
import {
  FindPasswordRequest,
  GetUserCaptchaReply,
  GetUserCaptchaRequest,
  LoginReply,
  RegisterAndLoginRequest,
  SendEmailCodeRequest,
} from '../../../shared/messages/user';
import { vipPeriodOf } from '../vip/service';
import {
  EmailCodeType,
  countEmailCodesFrom,
  countWrongEmailCode,
  deleteEmailCode,
  insertEmailCode,
  latestEmailCode,
  markEmailCodeSent,
  spendEmailCode,
} from './store';

// UserAPI: sign-up, sign-in, sign-out, captchas and password recovery (all PUBLIC).

const EMAIL_CODE_TTL_MS = 30 * 60 * 1000;
/** The least time between two mails of one kind (a register code, a reset link) to one address. */
const EMAIL_CODE_INTERVAL_MS = 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** The lock that the mails to one address take turns on (case-insensitive, as the addresses are compared). */
const emailLockKey = (email: string) => `email.${email.toLowerCase()}`;
/** Register codes one client address may have mailed in an hour, as many as SMS codes (sms.ip_hourly_limit's default). */
const EMAIL_CODES_PER_CLIENT_HOUR = 20;
/** A register code tried wrong too often, or spent by another registration meanwhile. */
const EMAIL_CODE_SPENT = '邮箱验证码错误次数过多或已失效，请重新获取';
/** A reset link that is malformed, forged, expired, for another address or used already: the visitor asks for a new one. */
const RESET_LINK_INVALID = '链接无效或已过期，请重新找回密码';

/**
 * The key of reset links: `email.secret` when the admin set one of their own, else the site's
 * generated one. Never MOREDOC's public default: with it anybody who saw one link of an account
 * (its token names the password it is for) could sign a new one, the expiry of the first aside.
 */
async function resetKey(ctx: RpcContext): Promise<Uint8Array> {
  return linkKey((await ctx.app.settings.snapshot()).str('email', 'secret'), ctx.app.resetLinkSecret);
}

/** Binds a reset token to the current password hash, so it stops working once used. */
const passwordFingerprint = (hash: string) => crypto.createHash('sha256').update(hash).digest('base64url').slice(0, 16);

export const accountRpcs = [
  rpc('Register', {
    http: 'POST /api/v1/user/register',
    request: RegisterAndLoginRequest,
    response: LoginReply,
    auth: 'public',
    async handler(req, ctx) {
      const cfg = await ctx.app.settings.snapshot();
      if (!cfg.bool('security', 'enable_register')) throw badRequest('系统未开放注册');
      if (cfg.bool('security', 'is_close')) throw badRequest('网站已关闭，暂时不允许注册');
      const verifyEmail = cfg.bool('security', 'enable_verify_register_email');
      const username = cleanName(req.username);
      assertValid([
        ...usernameProblems(username),
        ...passwordProblems(req.password),
        ...emailProblems(req.email, verifyEmail),
      ]);
      await checkCaptcha(ctx, 'register', req.captcha_id, req.captcha, true);
      if (await findUserByUsername(ctx.db, username)) throw conflict(USERNAME_TAKEN);
      if (await emailTaken(ctx.db, req.email)) throw conflict(EMAIL_TAKEN);
      let codeId = 0;
      if (verifyEmail) {
        const code = await latestEmailCode(ctx.db, req.email, true);
        if (code && code.attempts >= EMAIL_CODE_MAX_ATTEMPTS) throw badRequest(EMAIL_CODE_SPENT);
        if (!code || !req.code || code.code !== req.code.trim()) {
          // A wrong try counts against the code, as an SMS code's: six digits are not to be guessed.
          if (code) await countWrongEmailCode(ctx.db, code.id, EMAIL_CODE_MAX_ATTEMPTS);
          throw badRequest('邮箱验证码错误');
        }
        if ((await databaseNow(ctx.db)).getTime() - Date.parse(code.created_at) > EMAIL_CODE_TTL_MS)
          throw badRequest('邮箱验证码已过期');
        codeId = code.id;
      }
      const password = await hashPassword(req.password, ctx.app.passwordCost);
      const award = Math.max(cfg.int('score', 'register'), 0);
      // mapUnique: a concurrent registration of the same name loses with 409, not 500.
      const user = await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          // E-mail addresses are not unique in the table: registrations with one address take
          // turns, and the one that comes second finds the first.
          if (req.email) {
            await lockKeys(trx, [`register:email:${req.email.toLowerCase()}`]);
            if (await emailTaken(trx, req.email)) throw conflict(EMAIL_TAKEN);
          }
          const inserted = await createMember(trx, {
            username,
            password,
            email: req.email,
            register_ip: ctx.ip,
            last_login_ip: ctx.ip,
            login_at: new Date().toISOString(),
            credit_count: award,
          });
          if (award > 0)
            await addDynamic(
              trx,
              inserted.id,
              DynamicType.Register,
              `注册成为会员，${dynamicReward(award, cfg.creditName())}`,
            );
          // Wrong tries made meanwhile may have used the code up.
          if (codeId && !(await spendEmailCode(trx, codeId, EMAIL_CODE_MAX_ATTEMPTS)))
            throw badRequest(EMAIL_CODE_SPENT);
          return inserted;
        }),
        USERNAME_TAKEN,
      );
      const { token } = await ctx.app.tokens.issue(user.id);
      return { token, user: withoutPassword(user) };
    },
  }),

  rpc('Login', {
    http: 'POST /api/v1/user/login',
    request: RegisterAndLoginRequest,
    response: LoginReply,
    auth: 'public',
    async handler(req, ctx) {
      // Usernames never look like mobile numbers or e-mail addresses, so either names the
      // account it is bound to. Cleaned as it was when the account was made (cleanName).
      const name = cleanName(req.username);
      const mobile = normalizeMainlandMobile(name);
      const email = !mobile && name.includes('@') ? name.trim() : '';
      const nameProblems = mobile ? [] : email ? emailProblems(email, true) : usernameProblems(name).slice(0, 1);
      assertValid([...nameProblems, ...passwordProblems(req.password)]);
      // A right captcha outlives a wrong password (no retyping), for a few attempts only.
      await checkCaptcha(ctx, 'login', req.captcha_id, req.captcha, false);
      const user = mobile
        ? await findUserByMobile(ctx.db, mobile)
        : email
          ? await findUserBySignInEmail(ctx.db, email)
          : await findUserByUsername(ctx.db, name);
      // Hash even for unknown users so that timing does not reveal which usernames exist.
      const ok = user
        ? await verifyPassword(req.password, user.password)
        : (await hashPassword(req.password, ctx.app.passwordCost), false);
      // The captcha's check counted this attempt (CAPTCHA_ATTEMPTS in all).
      if (!user || !ok) throw badRequest('用户名或密码错误');
      await ctx.app.captcha.consume(req.captcha_id);
      await recordLogin(ctx.db, user.id, ctx.ip);
      const { token } = await ctx.app.tokens.issue(user.id);
      // The SPA keeps this user for the session: it says whether they are VIP, as GetUser does.
      const vip = await vipPeriodOf(ctx.db, user.id);
      return {
        token,
        user: { ...withoutPassword(user), is_vip: vip?.active ?? false, vip_end_at: vip?.endAt ?? null },
      };
    },
  }),

  rpc('Logout', {
    http: 'DELETE /api/v1/user/logout',
    auth: 'public',
    input: 'none',
    async handler(_req, ctx) {
      const token = bearerFromHeader(ctx.request.headers.authorization);
      const claims = token ? await ctx.app.tokens.verify(token) : null;
      if (claims) await revokeToken(ctx.db, claims);
      return {};
    },
  }),

  rpc('GetUserCaptcha', {
    http: 'GET /api/v1/user/captcha',
    request: GetUserCaptchaRequest,
    response: GetUserCaptchaReply,
    auth: 'public',
    async handler(req, ctx) {
      if (!(CAPTCHA_KINDS as readonly string[]).includes(req.type)) throw badRequest('不支持的验证码类型');
      const cfg = await ctx.app.settings.snapshot();
      const type = cfg.str('captcha', 'type') || 'digit';
      if (!cfg.bool('security', `enable_captcha_${req.type}`)) return { type };
      const { id, image } = await ctx.app.captcha.create(
        {
          type,
          length: clamp(cfg.int('captcha', 'length') || 6, 1, 12),
          width: clamp(cfg.int('captcha', 'width') || 240, 60, 1000),
          height: clamp(cfg.int('captcha', 'height') || 60, 20, 400),
        },
        ctx.ip,
        ctx.app.ipv6Prefix,
      );
      return { enable: true, id, captcha: image, type };
    },
  }),

  rpc('FindPasswordStepOne', {
    http: 'POST /api/v1/user/findpassword/stepone',
    request: FindPasswordRequest,
    auth: 'public',
    async handler(req, ctx) {
      assertValid(emailProblems(req.email, true));
      // A right captcha outlives a refusal (用户不存在, a mail just sent) for a few attempts in
      // all, as a login's, and a mail sent spends it: one solved captcha does not ask after any
      // number of addresses (decision 053 puts it in front of this answer).
      await checkCaptcha(ctx, 'find_password', req.captcha_id, req.captcha, false);
      const user = await findUserByEmail(ctx.db, req.email);
      if (!user) throw notFound('用户不存在');
      await ctx.app.mailer.assertConfigured();
      const cfg = await ctx.app.settings.snapshot();
      // The mail's link leads to the site: never to an address taken from the request (anyone can send any Host).
      const origin = cfg.siteOrigin();
      if (!origin) throw unavailable('网站域名尚未配置，暂时无法通过邮件找回密码，请联系管理员');
      // One reset mail a minute per address, whoever asks: the per-client limit alone let a
      // few addresses fill a member's inbox (decision 053). Checked and recorded under a lock on
      // the address, so that of requests at once (through any process) one sends; a mail being
      // sent counts, and one the SMTP server refused is removed, so that it holds back no retry.
      const mailId = await ctx.db.transaction().execute(async (trx) => {
        await lockKeys(trx, [emailLockKey(user.email)]);
        const latest = await latestEmailCode(trx, user.email, false, EmailCodeType.FindPassword);
        const at = await databaseNow(trx);
        if (latest && at.getTime() - Date.parse(latest.created_at) < EMAIL_CODE_INTERVAL_MS)
          throw badRequest('找回密码的邮件刚刚已发送，请查收邮箱（也请看看垃圾邮件）；1 分钟后才能再次发送');
        return insertEmailCode(trx, { email: user.email, code: '', ip: ctx.ip, type: EmailCodeType.FindPassword }, at);
      });
      const minutes = clamp(cfg.int('email', 'duration'), 1, 60);
      // Its expiry by the database's clock, as it is checked: the link may be opened through another machine.
      const issuedAt = Math.floor((await databaseNow(ctx.db)).getTime() / 1000);
      const token = await new SignJWT({ pwd: passwordFingerprint(user.password) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setJti(user.email)
        .setExpirationTime(issuedAt + minutes * 60)
        .sign(await resetKey(ctx));
      const sitename = cfg.str('system', 'sitename') || '魔豆文库';
      const link = `${origin}/auth/forgot?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
      try {
        await ctx.app.mailer.send({
          to: user.email,
          subject: `【${sitename}】找回密码`,
          html:
            `<p>尊敬的 ${escapeHtml(user.username)}，您好：</p><p>您正在找回 ${escapeHtml(sitename)} 的登录密码，请在 ${minutes} 分钟内点击下面的链接重设密码：</p>` +
            `<p><a href="${escapeHtml(link)}" target="_blank">${escapeHtml(link)}</a></p><p>如果这不是您本人的操作，请忽略本邮件。</p>`,
        });
      } catch (error) {
        await deleteEmailCode(ctx.db, mailId).catch(() => undefined);
        throw error;
      }
      await markEmailCodeSent(ctx.db, mailId);
      await ctx.app.captcha.consume(req.captcha_id);
      return {};
    },
  }),

  rpc('FindPasswordStepTwo', {
    http: 'PUT /api/v1/user/findpassword/steptwo',
    request: FindPasswordRequest,
    auth: 'public',
    async handler(req, ctx) {
      assertValid([
        ...emailProblems(req.email, true),
        ...(req.password.length < PASSWORD_LENGTH.min
          ? [`密码长度不能小于${PASSWORD_LENGTH.min}位`]
          : passwordProblems(req.password)),
      ]);
      if (!req.token) throw badRequest(RESET_LINK_INVALID);
      await checkCaptcha(ctx, 'find_password', req.captcha_id, req.captcha, true);
      const now = await databaseNow(ctx.db);
      let claims: { jti?: string; pwd?: unknown };
      try {
        claims = (
          await jwtVerify(req.token, await resetKey(ctx), {
            algorithms: ['HS256'],
            currentDate: now,
          })
        ).payload;
      } catch {
        throw badRequest(RESET_LINK_INVALID);
      }
      if (claims.jti?.toLowerCase() !== req.email.toLowerCase()) throw badRequest(RESET_LINK_INVALID);
      const user = await findUserByEmail(ctx.db, req.email);
      if (!user) throw notFound('用户不存在');
      if (claims.pwd !== passwordFingerprint(user.password)) throw badRequest(RESET_LINK_INVALID);
      const password = await hashPassword(req.password, ctx.app.passwordCost);
      await ctx.db.transaction().execute(async (trx) => {
        // Set only over the password the link was for: a link used twice at once changes it once.
        if (!(await replacePassword(trx, user.id, user.password, password))) throw badRequest(RESET_LINK_INVALID);
        await addDynamic(trx, user.id, DynamicType.Password, '通过邮箱找回了密码');
      });
      return {};
    },
  }),

  rpc('SendEmailCode', {
    http: 'POST /api/v1/user/email/code',
    request: SendEmailCodeRequest,
    auth: 'public',
    async handler(req, ctx) {
      assertValid(emailProblems(req.email, true));
      const cfg = await ctx.app.settings.snapshot();
      if (!cfg.bool('security', 'enable_register')) throw badRequest('系统未开放注册');
      if (!cfg.bool('security', 'enable_verify_register_email')) throw badRequest('系统未开启注册邮箱验证');
      if (req.type !== 0) throw badRequest('不支持的验证码类型');
      // Not spent: the registration spends it. Each code asked for with it is one of its few
      // attempts, as 邮箱已存在 and a code sent both say whether an address has an account.
      await checkCaptcha(ctx, 'register', req.captcha_id, req.captcha, false);
      if (await emailTaken(ctx.db, req.email)) throw conflict(EMAIL_TAKEN);
      await ctx.app.mailer.assertConfigured();
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      // Checked and recorded under locks on the address and the client address, so that of
      // requests at once (through any process) none slips under a limit.
      const codeId = await ctx.db.transaction().execute(async (trx) => {
        await lockKeys(trx, [emailLockKey(req.email), `email.client.${addressKey(ctx.ip, ctx.app.ipv6Prefix)}`]);
        const latest = await latestEmailCode(trx, req.email, false);
        // The database's clock, as the code's lifetime: another machine may have sent the last one.
        const at = await databaseNow(trx);
        if (latest && at.getTime() - Date.parse(latest.created_at) < EMAIL_CODE_INTERVAL_MS)
          throw badRequest('发送太频繁，请稍后再试');
        // Codes go to any address: without a cap per client address the site's mail account
        // would send for a loop over addresses, at the sign-in limit's pace, all day.
        const hourAgo = new Date(at.getTime() - HOUR_MS).toISOString();
        if (
          (await countEmailCodesFrom(trx, { ip: ctx.ip, ipv6Prefix: ctx.app.ipv6Prefix }, hourAgo)) >=
          EMAIL_CODES_PER_CLIENT_HOUR
        )
          throw tooManyRequests('当前网络获取邮箱验证码的次数过多，请一小时后再试');
        return insertEmailCode(trx, { email: req.email, code, ip: ctx.ip }, at);
      });
      const sitename = cfg.str('system', 'sitename') || '魔豆文库';
      await ctx.app.mailer.send({
        to: req.email,
        subject: `【${sitename}】注册验证码`,
        html: `<p>您的注册验证码是：<b>${code}</b>，30 分钟内有效。</p><p>如果这不是您本人的操作，请忽略本邮件。</p>`,
      });
      await markEmailCodeSent(ctx.db, codeId);
      return {};
    },
  }),
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
