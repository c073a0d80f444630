// What every SMS provider does: send one templated verification message to one mainland
// number. The providers (Alibaba Cloud, Tencent Cloud, log-only) differ only in how they
// sign and send the request; the caller chooses one from the `sms` config (sms-sender.ts).

export const SMS_PROVIDER_NAMES = ['log', 'aliyun', 'tencent'] as const;
export type SmsProviderName = (typeof SMS_PROVIDER_NAMES)[number];

export function isSmsProviderName(value: string): value is SmsProviderName {
  return (SMS_PROVIDER_NAMES as readonly string[]).includes(value);
}

export interface SmsMessage {
  /** A normalised mainland mobile number: 11 digits, no country code. */
  mobile: string;
  /** The provider's template (Alibaba TemplateCode, Tencent TemplateId). */
  templateId: string;
  /** The template's one variable (`${code}` at Alibaba, `{1}` at Tencent). */
  code: string;
  /** The message as the site words it; only the log-only provider uses it (clouds render their template). */
  text: string;
}

/** The site's account at the provider, from the `sms` config. */
export interface SmsAccount {
  signName: string;
  accessKeyId: string;
  accessKeySecret: string;
  /** Tencent only: the SmsSdkAppId. */
  sdkAppId: string;
  /** Tencent only: X-TC-Region. */
  region: string;
}

export interface SmsDelivery {
  /** The provider's id of the message (Alibaba BizId, Tencent SerialNo); '' for log-only. */
  bizId: string;
  /** The text of the message; only the log-only provider records it. */
  content: string;
}

export interface SmsProvider {
  readonly name: SmsProviderName;
  send(message: SmsMessage, signal: AbortSignal): Promise<SmsDelivery>;
}

/** Where the cloud APIs are reached (SMS_* variables), so tests and egress proxies can stand in. */
export interface SmsEndpoints {
  /** SMS_ALIYUN_ENDPOINT, default https://dysmsapi.aliyuncs.com */
  aliyun: string;
  /** SMS_TENCENT_ENDPOINT, default https://sms.tencentcloudapi.com */
  tencent: string;
  /** SMS_TIMEOUT_MS: limit of one call to a provider. */
  timeoutMs: number;
}

/**
 * - `rejected`: the provider answered with an error (signature, template, its own limits)
 * - `unreachable`, `timeout`: no answer
 * - `bad-answer`: an answer we cannot read
 */
export type SmsFailure = 'rejected' | 'unreachable' | 'timeout' | 'bad-answer';

export class SmsProviderError extends Error {
  override name = 'SmsProviderError';
  constructor(
    readonly failure: SmsFailure,
    message: string,
    readonly providerCode = '',
  ) {
    super(message);
  }
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends a request to a provider and parses its JSON answer, whatever the HTTP status (both
 * clouds describe their errors in the body). Transport failures become SmsProviderErrors.
 */
export async function requestJson(
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<{ status: number; body: Record<string, unknown> }> {
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'manual' });
    status = response.status;
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new SmsProviderError('bad-answer', `answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof SmsProviderError) throw error;
    if (signal.aborted) throw new SmsProviderError('timeout', 'no answer in time');
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new SmsProviderError('unreachable', `${error instanceof Error ? error.message : String(error)}${cause}`);
  }
  if (text.length > MAX_ANSWER_BYTES)
    throw new SmsProviderError('bad-answer', `answer larger than ${MAX_ANSWER_BYTES} bytes`);
  try {
    const body: unknown = JSON.parse(text);
    if (body !== null && typeof body === 'object' && !Array.isArray(body))
      return { status, body: body as Record<string, unknown> };
  } catch {
    // reported below
  }
  throw new SmsProviderError('bad-answer', `HTTP ${status}, not a JSON object: ${text.slice(0, 200)}`);
}

export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
