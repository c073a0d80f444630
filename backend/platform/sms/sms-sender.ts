import type { FastifyBaseLogger } from 'fastify';
import { optionLabel, smsProviderOptions } from '../../../shared/constants';
import { maskMobile } from '../../../shared/validation';
import { unavailable } from '../../wire/errors';
import type { ConfigSnapshot, ConfigStore } from '../config-store';
import { AliyunSmsProvider } from './aliyun';
import { LogOnlySmsProvider } from './log-only';
import {
  SmsProviderError,
  isSmsProviderName,
  type SmsAccount,
  type SmsDelivery,
  type SmsEndpoints,
  type SmsMessage,
  type SmsProvider,
  type SmsProviderName,
} from './sms-provider';
import { TencentSmsProvider } from './tencent';

// Sends SMS through the provider of the `sms` config category, like the Mailer sends mail
// through the `email` one: a switched-off or half-configured service is a clear 503 before
// anything is attempted.

function accountOf(cfg: ConfigSnapshot): SmsAccount {
  return {
    signName: cfg.str('sms', 'sign_name').trim(),
    accessKeyId: cfg.str('sms', 'access_key_id').trim(),
    accessKeySecret: cfg.str('sms', 'access_key_secret').trim(),
    sdkAppId: cfg.str('sms', 'sdk_app_id').trim(),
    region: cfg.str('sms', 'region').trim() || 'ap-guangzhou',
  };
}

/** What a cloud provider still lacks, in the words of the config page. */
function missingSettings(name: SmsProviderName, account: SmsAccount): string[] {
  if (name === 'log') return [];
  const missing: string[] = [];
  if (!account.signName) missing.push('短信签名');
  if (!account.accessKeyId) missing.push(name === 'aliyun' ? 'AccessKey ID' : 'SecretId');
  if (!account.accessKeySecret) missing.push(name === 'aliyun' ? 'AccessKey Secret' : 'SecretKey');
  if (name === 'tencent' && !account.sdkAppId) missing.push('SdkAppId');
  return missing;
}

export class SmsSender {
  constructor(
    private readonly settings: ConfigStore,
    private readonly endpoints: SmsEndpoints,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** The configured provider, or ApiError(Unavailable) when the service is off or incomplete. */
  async provider(): Promise<SmsProvider> {
    const cfg = await this.settings.snapshot();
    if (!cfg.bool('sms', 'enable')) throw unavailable('短信服务未启用，请联系管理员');
    const name = cfg.str('sms', 'provider');
    if (!isSmsProviderName(name)) throw unavailable('短信服务商配置无效，请联系管理员');
    const account = accountOf(cfg);
    const missing = missingSettings(name, account);
    if (missing.length)
      throw unavailable(`${optionLabel(smsProviderOptions, name)}尚未配置${missing.join('、')}，请联系管理员`);
    switch (name) {
      case 'aliyun':
        return new AliyunSmsProvider(account, this.endpoints.aliyun);
      case 'tencent':
        return new TencentSmsProvider(account, this.endpoints.tencent);
      case 'log':
        return new LogOnlySmsProvider(this.logger, account.signName);
    }
  }

  /**
   * Sends through `provider` within SMS_TIMEOUT_MS; provider failures are SmsProviderErrors (logged here, without the
   * code).
   */
  async send(provider: SmsProvider, message: SmsMessage): Promise<SmsDelivery> {
    try {
      return await provider.send(message, AbortSignal.timeout(this.endpoints.timeoutMs));
    } catch (error) {
      if (error instanceof SmsProviderError) {
        this.logger.warn(
          {
            provider: provider.name,
            mobile: maskMobile(message.mobile),
            failure: error.failure,
            detail: error.message,
          },
          'sms not sent',
        );
      }
      throw error;
    }
  }
}
