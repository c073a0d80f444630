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

// Alibaba Cloud SMS: `SendSms` of dysmsapi 2017-05-25, an RPC-style OpenAPI called with the
// V3 signature (ACS3-HMAC-SHA256): the parameters travel in the query string, the body is
// empty, and every x-acs-* header plus host is signed.

const ALGORITHM = 'ACS3-HMAC-SHA256';
const ACTION = 'SendSms';
const VERSION = '2017-05-25';

const sha256Hex = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');

/** RFC 3986 percent-encoding: everything but A–Z a–z 0–9 - _ . ~ (so a space is %20, `*` is %2A). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface AcsRequest {
  method: string;
  /** The path, `/` for RPC-style APIs. */
  path: string;
  query: Record<string, string>;
  /** Header names in lower case; must hold host and every x-acs-* header. */
  headers: Record<string, string>;
  body: string;
}

/** The Authorization header of a V3-signed request (the headers must already carry x-acs-content-sha256). */
export function acs3Authorization(request: AcsRequest, accessKeyId: string, accessKeySecret: string): string {
  const canonicalQuery = Object.keys(request.query)
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(request.query[name]!)}`)
    .join('&');
  const signedNames = Object.keys(request.headers)
    .filter((name) => name === 'host' || name === 'content-type' || name.startsWith('x-acs-'))
    .sort();
  const canonicalHeaders = signedNames.map((name) => `${name}:${request.headers[name]!.trim()}\n`).join('');
  const signedHeaders = signedNames.join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    request.path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  const stringToSign = `${ALGORITHM}\n${sha256Hex(canonicalRequest)}`;
  const signature = crypto.createHmac('sha256', accessKeySecret).update(stringToSign, 'utf8').digest('hex');
  return `${ALGORITHM} Credential=${accessKeyId},SignedHeaders=${signedHeaders},Signature=${signature}`;
}

/** `2024-05-01T10:20:30Z`: ISO 8601 in UTC without milliseconds, as x-acs-date wants it. */
const acsDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun' as const;

  constructor(
    private readonly account: SmsAccount,
    private readonly endpoint: string,
  ) {}

  async send(message: SmsMessage, signal: AbortSignal): Promise<SmsDelivery> {
    const url = new URL(this.endpoint);
    const query = {
      PhoneNumbers: message.mobile,
      SignName: this.account.signName,
      TemplateCode: message.templateId,
      TemplateParam: JSON.stringify({ code: message.code }),
    };
    const body = '';
    const headers: Record<string, string> = {
      host: url.host,
      'x-acs-action': ACTION,
      'x-acs-version': VERSION,
      'x-acs-date': acsDate(new Date()),
      'x-acs-signature-nonce': crypto.randomUUID(),
      'x-acs-content-sha256': sha256Hex(body),
    };
    const authorization = acs3Authorization(
      { method: 'POST', path: '/', query, headers, body },
      this.account.accessKeyId,
      this.account.accessKeySecret,
    );
    const search = Object.entries(query)
      .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
      .join('&');
    // fetch sets Host itself, from the same URL the signature used.
    const { host: _host, ...sent } = headers;
    const { status, body: answer } = await requestJson(
      `${url.origin}/?${search}`,
      {
        method: 'POST',
        headers: { ...sent, authorization, accept: 'application/json' },
      },
      signal,
    );
    const code = str(answer.Code);
    if (code === 'OK' && status === 200) return { bizId: str(answer.BizId), content: '' };
    if (!code) throw new SmsProviderError('bad-answer', `HTTP ${status} without Code`);
    throw new SmsProviderError('rejected', `${code}: ${str(answer.Message)}`, code);
  }
}
