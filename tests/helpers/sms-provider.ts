// A stand-in for the SMS APIs of Alibaba Cloud and Tencent Cloud on 127.0.0.1 port 0. It checks
// every request's signature the way each cloud documents it, written here from those
// documents and independently of backend/platform/sms (own canonicalisation, own encoder),
// so that a signer bug fails the tests instead of being mirrored by the stub. Requests
// tell the cloud by their headers (x-acs-action / x-tc-action); both endpoints may be this URL.
import crypto from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STUB_ACCOUNTS = {
  aliyun: { accessKeyId: 'LTAI5tStubAccessKeyId', accessKeySecret: 'stub-aliyun-access-key-secret' },
  tencent: {
    secretId: 'AKIDstubSecretId0123456789',
    secretKey: 'stub-tencent-secret-key',
    sdkAppId: '1400123456',
    region: 'ap-guangzhou',
  },
} as const;

export type Cloud = 'aliyun' | 'tencent';

/**
 * How the stub misbehaves (null: it works): `limit` the cloud's own per-number limit,
 * `refuse` an error about our account, `http-500` a server error with an HTML page,
 * `hang` no answer at all.
 */
export type Fault = 'limit' | 'refuse' | 'http-500' | 'hang' | null;

export interface RawRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A message the stub accepted. */
export interface SentSms {
  cloud: Cloud;
  /** As the cloud got it: `13800000000` (Alibaba) or `+8613800000000` (Tencent). */
  phone: string;
  signName: string;
  template: string;
  /** The template's variables in order (the code). */
  params: string[];
  raw: RawRequest;
}

/** A request the stub refused, with the error code the cloud would give. */
export interface Refusal {
  cloud: Cloud | 'unknown';
  code: string;
  raw: RawRequest;
}

export interface SmsProviderStub {
  url: string;
  /** SMS_* variables pointing a backend at this stub. */
  env: Record<string, string>;
  /** CONFIG_SMS_* presets: SMS on with `cloud` and the stub's credentials and templates. */
  settingsEnv(cloud: Cloud): Record<string, string>;
  sent: SentSms[];
  refused: Refusal[];
  fault: Fault;
  /** Sends a raw request again (replays and tampering tests). */
  replay(raw: RawRequest): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmacRaw = (key: string | Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding byte by byte: unreserved characters stay, every other byte becomes %XX (upper case). */
function rfc3986(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function header(raw: RawRequest, name: string): string {
  return raw.headers[name] ?? '';
}

class Refused extends Error {
  constructor(
    readonly code: string,
    readonly status = 400,
  ) {
    super(code);
  }
}

// ---------------------------------------------------------------------------------------
// Alibaba Cloud, V3 signature (ACS3-HMAC-SHA256)

function verifyAliyun(raw: RawRequest, seenNonces: Set<string>): URLSearchParams {
  const match = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
    header(raw, 'authorization'),
  );
  if (!match) throw new Refused('IncompleteSignature');
  const [, keyId, signedList, signature] = match as unknown as [string, string, string, string];
  if (keyId !== STUB_ACCOUNTS.aliyun.accessKeyId) throw new Refused('InvalidAccessKeyId.NotFound', 404);
  const signed = signedList.split(';');
  // host and every x-acs-* header must be signed, in ascending order.
  const required = Object.keys(raw.headers)
    .filter((name) => name.startsWith('x-acs-'))
    .concat('host');
  if (required.some((name) => !signed.includes(name)) || [...signed].sort().join(';') !== signedList)
    throw new Refused('IncompleteSignature');
  if (header(raw, 'x-acs-action') !== 'SendSms' || header(raw, 'x-acs-version') !== '2017-05-25')
    throw new Refused('InvalidAction.NotFound', 404);
  if (header(raw, 'x-acs-content-sha256') !== sha256(raw.body)) throw new Refused('ContentSHA256NotMatched');
  const date = header(raw, 'x-acs-date');
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(date) || Math.abs(Date.parse(date) - Date.now()) > 15 * 60_000)
    throw new Refused('InvalidTimeStamp.Expired');

  const [path = '/', rawQuery = ''] = raw.url.split('?');
  const pairs = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const cut = pair.indexOf('=');
      const name = decodeURIComponent(cut < 0 ? pair : pair.slice(0, cut));
      const value = cut < 0 ? '' : decodeURIComponent(pair.slice(cut + 1));
      return [rfc3986(name), rfc3986(value)] as const;
    });
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonicalRequest = [
    raw.method,
    path,
    pairs.map(([name, value]) => `${name}=${value}`).join('&'),
    signed.map((name) => `${name}:${header(raw, name).trim()}\n`).join(''),
    signedList,
    sha256(raw.body),
  ].join('\n');
  const expected = crypto
    .createHmac('sha256', STUB_ACCOUNTS.aliyun.accessKeySecret)
    .update(`ACS3-HMAC-SHA256\n${sha256(canonicalRequest)}`)
    .digest('hex');
  if (expected !== signature) throw new Refused('SignatureDoesNotMatch');
  // Checked after the signature, as the cloud does: a replayed request is otherwise valid.
  const nonce = header(raw, 'x-acs-signature-nonce');
  if (!nonce || seenNonces.has(nonce)) throw new Refused('SignatureNonceUsed');
  seenNonces.add(nonce);
  return new URLSearchParams(rawQuery);
}

// ---------------------------------------------------------------------------------------
// Tencent Cloud, signature v3 (TC3-HMAC-SHA256)

function verifyTencent(raw: RawRequest): Record<string, unknown> {
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/([a-z]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      header(raw, 'authorization'),
    );
  if (!match) throw new Refused('AuthFailure.InvalidAuthorization');
  const [, secretId, date, service, signedList, signature] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (secretId !== STUB_ACCOUNTS.tencent.secretId) throw new Refused('AuthFailure.SecretIdNotFound');
  const timestamp = Number(header(raw, 'x-tc-timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(timestamp * 1000 - Date.now()) > 5 * 60_000)
    throw new Refused('AuthFailure.SignatureExpire');
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date || service !== 'sms')
    throw new Refused('AuthFailure.InvalidAuthorization');
  const signed = signedList.split(';');
  if (!signed.includes('content-type') || !signed.includes('host'))
    throw new Refused('AuthFailure.InvalidAuthorization');
  if (header(raw, 'x-tc-action') !== 'SendSms' || header(raw, 'x-tc-version') !== '2021-01-11')
    throw new Refused('InvalidAction');
  const [path = '/', query = ''] = raw.url.split('?');
  // Tencent lower-cases header names and values alike.
  const canonicalHeaders = signed.map((name) => `${name}:${header(raw, name).trim().toLowerCase()}\n`).join('');
  const canonicalRequest = [raw.method, path, query, canonicalHeaders, signedList, sha256(raw.body)].join('\n');
  const stringToSign = [
    'TC3-HMAC-SHA256',
    String(timestamp),
    `${date}/${service}/tc3_request`,
    sha256(canonicalRequest),
  ].join('\n');
  const kDate = hmacRaw(`TC3${STUB_ACCOUNTS.tencent.secretKey}`, date);
  const kService = hmacRaw(kDate, service);
  const kSigning = hmacRaw(kService, 'tc3_request');
  if (hmacRaw(kSigning, stringToSign).toString('hex') !== signature) throw new Refused('AuthFailure.SignatureFailure');
  try {
    return JSON.parse(raw.body) as Record<string, unknown>;
  } catch {
    throw new Refused('InvalidParameter');
  }
}

// ---------------------------------------------------------------------------------------

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json;charset=utf-8',
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readRaw(req: IncomingMessage): Promise<RawRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return { method: req.method ?? '', url: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
}

export async function startSmsProvider(): Promise<SmsProviderStub> {
  const seenNonces = new Set<string>();
  const requestId = () => crypto.randomUUID().toUpperCase();

  const handleAliyun = (raw: RawRequest, res: ServerResponse) => {
    let params: URLSearchParams;
    try {
      params = verifyAliyun(raw, seenNonces);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      stub.refused.push({ cloud: 'aliyun', code: error.code, raw });
      send(res, error.status, { RequestId: requestId(), Code: error.code, Message: `stub: ${error.code}` });
      return;
    }
    if (stub.fault === 'limit')
      return send(res, 200, {
        RequestId: requestId(),
        Code: 'isv.BUSINESS_LIMIT_CONTROL',
        Message: '触发号码天级流控Permits:10',
      });
    if (stub.fault === 'refuse')
      return send(res, 200, {
        RequestId: requestId(),
        Code: 'isv.SMS_SIGNATURE_ILLEGAL',
        Message: '该账号下找不到对应签名',
      });
    const templateParam = JSON.parse(params.get('TemplateParam') ?? '{}') as Record<string, string>;
    stub.sent.push({
      cloud: 'aliyun',
      phone: params.get('PhoneNumbers') ?? '',
      signName: params.get('SignName') ?? '',
      template: params.get('TemplateCode') ?? '',
      params: Object.values(templateParam),
      raw,
    });
    send(res, 200, { RequestId: requestId(), Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` });
  };

  const handleTencent = (raw: RawRequest, res: ServerResponse) => {
    let body: Record<string, unknown>;
    try {
      body = verifyTencent(raw);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      stub.refused.push({ cloud: 'tencent', code: error.code, raw });
      send(res, 200, {
        Response: { Error: { Code: error.code, Message: `stub: ${error.code}` }, RequestId: requestId() },
      });
      return;
    }
    if (stub.fault === 'refuse') {
      return send(res, 200, {
        Response: {
          Error: { Code: 'FailedOperation.SignatureIncorrectOrUnapproved', Message: '签名未审批或格式错误' },
          RequestId: requestId(),
        },
      });
    }
    const phones = (body.PhoneNumberSet as string[] | undefined) ?? [];
    const limited = stub.fault === 'limit';
    if (!limited) {
      stub.sent.push({
        cloud: 'tencent',
        phone: phones[0] ?? '',
        signName: String(body.SignName ?? ''),
        template: String(body.TemplateId ?? ''),
        params: (body.TemplateParamSet as string[] | undefined) ?? [],
        raw,
      });
    }
    send(res, 200, {
      Response: {
        SendStatusSet: phones.map((phone) => ({
          SerialNo: limited ? '' : `2640:${Date.now()}`,
          PhoneNumber: phone,
          Fee: limited ? 0 : 1,
          SessionContext: '',
          Code: limited ? 'LimitExceeded.PhoneNumberDailyLimit' : 'Ok',
          Message: limited ? '单个手机号日下发短信条数超过设定的上限' : 'send success',
          IsoCode: 'CN',
        })),
        RequestId: requestId(),
      },
    });
  };

  const server = createServer((req, res) => {
    void readRaw(req).then((raw) => {
      if (stub.fault === 'hang') return;
      if (stub.fault === 'http-500') return send(res, 500, '<html><body>502 Bad Gateway</body></html>', 'text/html');
      if (raw.headers['x-acs-action'] !== undefined) return handleAliyun(raw, res);
      if (raw.headers['x-tc-action'] !== undefined) return handleTencent(raw, res);
      stub.refused.push({ cloud: 'unknown', code: 'MissingAction', raw });
      send(res, 400, { Code: 'MissingAction' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stub: SmsProviderStub = {
    url,
    env: { SMS_ALIYUN_ENDPOINT: url, SMS_TENCENT_ENDPOINT: url, SMS_TIMEOUT_MS: '500' },
    settingsEnv(cloud) {
      const credentials: Record<string, string> =
        cloud === 'aliyun'
          ? {
              CONFIG_SMS_ACCESS_KEY_ID: STUB_ACCOUNTS.aliyun.accessKeyId,
              CONFIG_SMS_ACCESS_KEY_SECRET: STUB_ACCOUNTS.aliyun.accessKeySecret,
            }
          : {
              CONFIG_SMS_ACCESS_KEY_ID: STUB_ACCOUNTS.tencent.secretId,
              CONFIG_SMS_ACCESS_KEY_SECRET: STUB_ACCOUNTS.tencent.secretKey,
              CONFIG_SMS_SDK_APP_ID: STUB_ACCOUNTS.tencent.sdkAppId,
              CONFIG_SMS_REGION: STUB_ACCOUNTS.tencent.region,
            };
      return {
        CONFIG_SMS_ENABLE: 'true',
        CONFIG_SMS_PROVIDER: cloud,
        CONFIG_SMS_SIGN_NAME: '魔豆文库',
        CONFIG_SMS_TEMPLATE_LOGIN: cloud === 'aliyun' ? 'SMS_400000001' : '1900001',
        CONFIG_SMS_TEMPLATE_REGISTER: cloud === 'aliyun' ? 'SMS_400000002' : '1900002',
        ...credentials,
      };
    },
    sent: [],
    refused: [],
    fault: null,
    async replay(raw) {
      const { host: _host, 'content-length': _length, connection: _connection, ...headers } = raw.headers;
      const response = await fetch(`${url}${raw.url}`, {
        method: raw.method,
        headers,
        body: raw.method === 'GET' ? undefined : raw.body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stub;
}
