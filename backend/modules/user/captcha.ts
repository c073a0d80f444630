import { badRequest } from '../../wire/errors';
import type { RpcContext } from '../../platform/rpc';

// The image captcha in front of the public actions, each switched by `security.enable_captcha_<kind>`;
// `sms` guards the sending of SMS codes (ours, docs/api.md §6), `feedback` a visitor's
// feedback (ours, docs/api.md §12).

export const CAPTCHA_KINDS = ['register', 'login', 'find_password', 'comment', 'sms', 'feedback'] as const;
export type CaptchaKind = (typeof CAPTCHA_KINDS)[number];

/** Checks the captcha of an action when the security config enables it. */
export async function checkCaptcha(
  ctx: RpcContext,
  kind: CaptchaKind,
  id: string,
  answer: string,
  consume: boolean,
): Promise<void> {
  const cfg = await ctx.app.settings.snapshot();
  if (!cfg.bool('security', `enable_captcha_${kind}`)) return;
  if (!id || !answer) throw badRequest('请输入验证码');
  if (!(await ctx.app.captcha.verify(id, answer, consume))) throw badRequest('验证码错误');
}
