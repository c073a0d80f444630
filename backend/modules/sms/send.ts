import crypto from 'node:crypto';
import {
  SMS_CODE_TTL_MINUTES,
  SmsStatus,
  optionLabel,
  smsPurposeOptions,
  type SmsCodePurpose,
  type SmsPurpose,
} from '../../../shared/constants';
import { databaseNow, lockKeys } from '../../db/dialect';
import type { ConfigSnapshot } from '../../platform/config-store';
import type { BackendContext } from '../../platform/context';
import { SmsProviderError, type SmsProvider } from '../../platform/sms/sms-provider';
import { ApiError, Code, badGateway, badRequest, deadlineExceeded, unavailable } from '../../wire/errors';
import { issueCode } from './codes';
import { assertWithinLimits, limitsOf } from './limits';
import { finishLog, insertLog } from './store';

// Sending: the limits and the new code are checked and written in one transaction (so two
// requests cannot both slip under a limit: on PostgreSQL those transactions take turns on one
// lock, the site-wide limit being one of them), then the provider is called outside it, and
// the log row records how it went.

const MAX_ERROR_LENGTH = 500;

/** Provider answers that are about the number, not about our account: said plainly to the member. */
const NUMBER_LIMITED = new Set([
  'isv.BUSINESS_LIMIT_CONTROL',
  'isv.DAY_LIMIT_CONTROL',
  'LimitExceeded.PhoneNumberThirtySecondLimit',
  'LimitExceeded.PhoneNumberOneHourLimit',
  'LimitExceeded.PhoneNumberDailyLimit',
  'LimitExceeded.PhoneNumberSameContentDailyLimit',
]);
const NUMBER_INVALID = new Set([
  'isv.MOBILE_NUMBER_ILLEGAL',
  'InvalidParameterValue.IncorrectPhoneNumber',
  'FailedOperation.PhoneNumberInBlacklist',
]);

const ACTIONS: Record<SmsPurpose, string> = {
  register: '您正在注册账号',
  login: '您正在登录',
  find_password: '您正在找回密码',
  bind: '您正在绑定手机号',
  test: '这是一条测试短信',
};

function messageText(purpose: SmsPurpose, code: string): string {
  return `${ACTIONS[purpose]}，验证码为 ${code}，${SMS_CODE_TTL_MINUTES} 分钟内有效。如非本人操作，请忽略本短信。`;
}

/** The purpose's template, else the login template (one verification template serves all). */
function templateFor(cfg: ConfigSnapshot, purpose: SmsPurpose, provider: SmsProvider): string {
  const own = purpose === 'test' ? '' : cfg.str('sms', `template_${purpose}`).trim();
  const template = own || cfg.str('sms', 'template_login').trim();
  if (!template && provider.name !== 'log') {
    const label = purpose === 'test' ? '登录' : optionLabel(smsPurposeOptions, purpose);
    throw unavailable(`短信服务尚未配置${label}验证码模板，请联系管理员`);
  }
  return template;
}

/** How a provider failure reads to a member (details stay in the log and the sms log). */
function memberFacing(error: SmsProviderError): ApiError {
  if (NUMBER_LIMITED.has(error.providerCode))
    return new ApiError(Code.ResourceExhausted, '该手机号获取验证码过于频繁，请稍后再试');
  if (NUMBER_INVALID.has(error.providerCode)) return badRequest('该手机号码无法接收短信，请检查号码');
  switch (error.failure) {
    case 'timeout':
      return deadlineExceeded('短信服务响应超时，请稍后再试');
    case 'unreachable':
      return badGateway('无法连接短信服务，请稍后再试');
    default:
      return badGateway('短信发送失败，请稍后再试');
  }
}

interface Delivery {
  provider: SmsProvider;
  mobile: string;
  purpose: SmsPurpose;
  templateId: string;
  code: string;
  logId: number;
}

/** Calls the provider and records the outcome; a provider failure is rethrown as it came. */
async function deliver(app: BackendContext, delivery: Delivery): Promise<void> {
  const { provider, mobile, purpose, templateId, code, logId } = delivery;
  try {
    const sent = await app.sms.send(provider, { mobile, templateId, code, text: messageText(purpose, code) });
    await finishLog(app.db, logId, { status: SmsStatus.Sent, biz_id: sent.bizId, content: sent.content });
  } catch (error) {
    const detail = error instanceof SmsProviderError ? error.message : '服务器内部错误';
    await finishLog(app.db, logId, { status: SmsStatus.Failed, error: detail.slice(0, MAX_ERROR_LENGTH) });
    throw error;
  }
}

/**
 * Sends a new verification code to `mobile` (a normalised mainland number) unless a limit
 * forbids it (429). The code is never part of any answer. Returns the seconds to wait
 * before the next code for this number.
 */
export async function sendVerificationCode(
  app: BackendContext,
  request: { mobile: string; purpose: SmsCodePurpose; ip: string },
): Promise<{ interval: number }> {
  const provider = await app.sms.provider();
  const cfg = await app.settings.snapshot();
  const templateId = templateFor(cfg, request.purpose, provider);
  const limits = limitsOf(cfg);
  const { code, logId } = await app.db.transaction().execute(async (trx) => {
    await lockKeys(trx, ['sms.send']);
    // The database's clock: the last message, the code's expiry and the limits' windows are the same
    // moments on every machine, whichever sent or checks them.
    const at = await databaseNow(trx);
    await assertWithinLimits(trx, limits, request.mobile, { ip: request.ip, ipv6Prefix: app.ipv6Prefix }, at.getTime());
    const issued = await issueCode(trx, request.mobile, request.purpose, at);
    const id = await insertLog(
      trx,
      { mobile: request.mobile, purpose: request.purpose, provider: provider.name, ip: request.ip },
      at,
    );
    return { code: issued, logId: id };
  });
  try {
    await deliver(app, { provider, mobile: request.mobile, purpose: request.purpose, templateId, code, logId });
  } catch (error) {
    if (error instanceof SmsProviderError) throw memberFacing(error);
    throw error;
  }
  return { interval: limits.interval };
}

/**
 * The config page's test message: the login template with a random code, logged as `test`; errors name the provider's
 * reason.
 */
export async function sendTestSms(app: BackendContext, mobile: string, ip: string): Promise<void> {
  const provider = await app.sms.provider();
  const templateId = templateFor(await app.settings.snapshot(), 'test', provider);
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const logId = await insertLog(
    app.db,
    { mobile, purpose: 'test', provider: provider.name, ip },
    await databaseNow(app.db),
  );
  try {
    await deliver(app, { provider, mobile, purpose: 'test', templateId, code, logId });
  } catch (error) {
    if (!(error instanceof SmsProviderError)) throw error;
    if (error.failure === 'timeout') throw deadlineExceeded('短信服务响应超时');
    throw badGateway(`短信发送失败：${error.message}`);
  }
}
