import crypto from 'node:crypto';
import {
  SmsProviderError,
  requestJson,
  str,
  type SmsAccount,
  type SmsDelivery,
  type SmsMessage,
  type SmsProvider,
} from './sms-provider';

// Tencent Cloud SMS: `SendSms` of API version 2021-01-11, a JSON POST signed with TC3-HMAC-SHA256
// (signature v3): a key derived from the SecretKey, the UTC date and the service signs the
// hash of the canonical request.

const ALGORITHM = 'TC3-HMAC-SHA256';
const SERVICE = 'sms';
const ACTION = 'SendSms';
const VERSION = '2021-01-11';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();

export interface Tc3Request {
  /** The Host header as sent. */
  host: string;
  /** Unix seconds, also sent as X-TC-Timestamp. */
  timestamp: number;
  body: string;
}

/** The Authorization header of a POST / with a JSON body, signing content-type, host and x-tc-action. */
export function tc3Authorization(request: Tc3Request, secretId: string, secretKey: string): string {
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalHeaders = `content-type:${CONTENT_TYPE}\nhost:${request.host}\nx-tc-action:${ACTION.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(request.body)].join('\n');
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = [ALGORITHM, String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${secretKey}`, date), SERVICE), 'tc3_request');
  const signature = crypto.createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `${ALGORITHM} Credential=${secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent' as const;

  constructor(
    private readonly account: SmsAccount,
    private readonly endpoint: string,
  ) {}

  async send(message: SmsMessage, signal: AbortSignal): Promise<SmsDelivery> {
    const url = new URL(this.endpoint);
    const body = JSON.stringify({
      PhoneNumberSet: [`+86${message.mobile}`],
      SmsSdkAppId: this.account.sdkAppId,
      SignName: this.account.signName,
      TemplateId: message.templateId,
      TemplateParamSet: [message.code],
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = tc3Authorization(
      { host: url.host, timestamp, body },
      this.account.accessKeyId,
      this.account.accessKeySecret,
    );
    const { status, body: answer } = await requestJson(
      `${url.origin}/`,
      {
        method: 'POST',
        headers: {
          authorization,
          'content-type': CONTENT_TYPE,
          'x-tc-action': ACTION,
          'x-tc-version': VERSION,
          'x-tc-timestamp': String(timestamp),
          'x-tc-region': this.account.region,
        },
        body,
      },
      signal,
    );
    const response = record(answer.Response);
    const error = record(response.Error);
    if (str(error.Code))
      throw new SmsProviderError('rejected', `${str(error.Code)}: ${str(error.Message)}`, str(error.Code));
    const [sent] = Array.isArray(response.SendStatusSet) ? response.SendStatusSet.map(record) : [];
    if (status !== 200 || !sent) throw new SmsProviderError('bad-answer', `HTTP ${status} without SendStatusSet`);
    // The request can succeed while the one number fails (its Code then says why).
    const code = str(sent.Code);
    if (code !== 'Ok') throw new SmsProviderError('rejected', `${code || '无状态码'}: ${str(sent.Message)}`, code);
    return { bizId: str(sent.SerialNo), content: '' };
  }
}
