import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { beijingRfc3339, readPrivateKey, readPublicKey } from './keys';
import {
  NotificationRefused,
  PaymentProviderError,
  clip,
  orElse,
  type Device,
  type NotifyAnswer,
  type NotifyRequest,
  type NotifyingProvider,
  type PaymentStart,
  type PaymentSubject,
  type TradeState,
  type VerifiedNotification,
} from './provider';

// WeChat Pay API v3 with node:crypto: requests signed with the merchant's key
// (WECHATPAY2-SHA256-RSA2048 over `METHOD\nURL\ntimestamp\nnonce\nbody\n`), answers and
// notifications checked with the platform certificate or the 微信支付公钥 (over
// `timestamp\nnonce\nbody\n`), notification resources decrypted with the API v3 key
// (AEAD_AES_256_GCM). Native pay gives a code_url for a QR code, H5 a page for phones.

export interface WechatPaySettings {
  appId: string;
  mchId: string;
  /** Serial number of the merchant's API certificate. */
  serialNo: string;
  privateKey: string;
  /** 32 characters. */
  apiV3Key: string;
  /** The 微信支付公钥 or a platform certificate (PEM). */
  platformKey: string;
  /** `PUB_KEY_ID_…` or the platform certificate's serial; '' = the certificate's own serial, or no check. */
  platformKeyId: string;
  /** `https://api.mch.weixin.qq.com` or a stand-in (PAY_WECHAT_API_URL). */
  apiUrl: string;
  timeoutMs: number;
  notifyUrl: string;
}

/** Signed messages older or newer than this are refused (WeChat's own advice: 5 minutes). */
const MAX_CLOCK_SKEW_S = 300;
const MAX_ANSWER_BYTES = 256 * 1024;
const GCM_TAG_BYTES = 16;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const header = (headers: IncomingHttpHeaders | Headers, name: string): string => {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** AEAD_AES_256_GCM as WeChat Pay uses it: base64 ciphertext with the 16-byte tag at its end. */
export function decryptResource(
  apiV3Key: string,
  resource: { ciphertext: string; nonce: string; associated_data: string },
): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= GCM_TAG_BYTES) throw new Error('ciphertext too short');
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(resource.nonce, 'utf8'),
  );
  decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
  decipher.setAAD(Buffer.from(resource.associated_data, 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

export class WechatPayProvider implements NotifyingProvider {
  readonly name = 'wechat' as const;
  private readonly privateKey: crypto.KeyObject;
  private readonly platformKey: crypto.KeyObject;
  private readonly platformSerial: string;

  constructor(private readonly settings: WechatPaySettings) {
    const { appId, mchId, serialNo, privateKey, apiV3Key, platformKey } = settings;
    if (!appId || !mchId || !serialNo || !privateKey || !apiV3Key || !platformKey) {
      throw new PaymentProviderError(
        'misconfigured',
        '微信支付尚未配置 AppID、商户号、证书序列号、商户私钥、APIv3 密钥和微信支付公钥',
      );
    }
    if (Buffer.byteLength(apiV3Key, 'utf8') !== 32)
      throw new PaymentProviderError('misconfigured', '微信支付 APIv3 密钥应为 32 个字符');
    this.privateKey = readPrivateKey(privateKey, '微信支付商户 API 私钥');
    const platform = readPublicKey(platformKey, '微信支付公钥或平台证书');
    this.platformKey = platform.key;
    this.platformSerial = settings.platformKeyId.trim() || platform.certificateSerial;
  }

  async start(order: PaymentSubject, device: Device): Promise<PaymentStart> {
    const body: Json = {
      appid: this.settings.appId,
      mchid: this.settings.mchId,
      description: order.subject.slice(0, 127),
      out_trade_no: order.orderNo,
      time_expire: beijingRfc3339(order.expiresAt),
      notify_url: this.settings.notifyUrl,
      amount: { total: order.amount, currency: 'CNY' },
    };
    if (device === 'mobile') {
      body.scene_info = { payer_client_ip: order.clientIp || '127.0.0.1', h5_info: { type: 'Wap' } };
      const answer = await this.call('POST', '/v3/pay/transactions/h5', body);
      const h5Url = text(answer?.h5_url);
      if (!h5Url) throw new PaymentProviderError('bad-answer', 'h5_url missing');
      // WeChat sends the member back to redirect_url after paying (H5 only).
      return {
        kind: 'redirect',
        url: `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(order.returnUrl)}`,
      };
    }
    const answer = await this.call('POST', '/v3/pay/transactions/native', body);
    const codeUrl = text(answer?.code_url);
    if (!codeUrl) throw new PaymentProviderError('bad-answer', 'code_url missing');
    return { kind: 'qrcode', codeUrl };
  }

  async query(orderNo: string): Promise<TradeState> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.settings.mchId)}`;
    let answer: Json | null;
    try {
      answer = await this.call('GET', path);
    } catch (error) {
      if (error instanceof PaymentProviderError && error.providerCode === 'ORDER_NOT_EXIST')
        return { paid: false, state: 'NOT_EXIST' };
      throw error;
    }
    if (!answer) throw new PaymentProviderError('bad-answer', 'empty trade query answer');
    const state = text(answer.trade_state);
    if (state !== 'SUCCESS') return { paid: false, state };
    return { paid: true, payment: this.paymentOf(answer, orderNo) };
  }

  async close(orderNo: string): Promise<void> {
    await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, {
      mchid: this.settings.mchId,
    });
  }

  verifyNotification(request: NotifyRequest): VerifiedNotification {
    const raw = clip(request.body);
    this.verifySignature(request.headers, request.body, (reason) => new NotificationRefused(reason, raw));
    const envelope = orElse(() => asObject(JSON.parse(request.body)), null);
    const resource = asObject(envelope?.resource);
    if (!envelope || !resource) throw new NotificationRefused('通知格式无效', raw);
    if (text(resource.algorithm) !== 'AEAD_AES_256_GCM')
      throw new NotificationRefused(`不支持的加密算法 ${text(resource.algorithm)}`, raw);
    let plain: string;
    try {
      plain = decryptResource(this.settings.apiV3Key, {
        ciphertext: text(resource.ciphertext),
        nonce: text(resource.nonce),
        associated_data: text(resource.associated_data),
      });
    } catch {
      throw new NotificationRefused('无法用 APIv3 密钥解密通知', raw);
    }
    const transaction = orElse(() => asObject(JSON.parse(plain)), null);
    const kept = clip(JSON.stringify({ body: envelope, resource: transaction ?? plain }));
    if (!transaction) throw new NotificationRefused('通知内容无效', kept);
    const orderNo = text(transaction.out_trade_no);
    if (text(transaction.mchid) !== this.settings.mchId)
      throw new NotificationRefused(`商户号不匹配（${text(transaction.mchid)}）`, kept, orderNo);
    if (text(transaction.appid) !== this.settings.appId)
      throw new NotificationRefused(`AppID 不匹配（${text(transaction.appid)}）`, kept, orderNo);
    const event = text(envelope.event_type);
    const state = text(transaction.trade_state);
    if (event !== 'TRANSACTION.SUCCESS' || state !== 'SUCCESS') {
      return { kind: 'ignored', orderNo, reason: `事件 ${event || '未知'}，交易状态 ${state || '未知'}`, raw: kept };
    }
    try {
      return { kind: 'paid', payment: this.paymentOf(transaction, orderNo), raw: kept };
    } catch {
      throw new NotificationRefused('缺少订单号或金额', kept, orderNo);
    }
  }

  answer(accepted: boolean, message: string): NotifyAnswer {
    // 2xx stops WeChat's retries (about 24 h); an error status with {code, message} asks for another try.
    return accepted
      ? { status: 204 }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
  }

  private paymentOf(transaction: Json, orderNo: string) {
    const amount = asObject(transaction.amount)?.total;
    if (
      text(transaction.out_trade_no) !== orderNo ||
      !orderNo ||
      typeof amount !== 'number' ||
      !Number.isInteger(amount)
    ) {
      throw new PaymentProviderError('bad-answer', 'transaction without order number or amount');
    }
    const paidAt = new Date(text(transaction.success_time));
    return {
      orderNo,
      tradeNo: text(transaction.transaction_id),
      amount,
      paidAt: Number.isNaN(paidAt.getTime()) ? null : paidAt.toISOString(),
    };
  }

  /** Throws `refuse(reason)` unless the platform signed `timestamp\nnonce\nbody\n` recently. */
  private verifySignature(
    headers: IncomingHttpHeaders | Headers,
    body: string,
    refuse: (reason: string) => Error,
  ): void {
    const timestamp = header(headers, 'wechatpay-timestamp');
    const nonce = header(headers, 'wechatpay-nonce');
    const signature = header(headers, 'wechatpay-signature');
    const serial = header(headers, 'wechatpay-serial');
    if (!timestamp || !nonce || !signature) throw refuse('缺少签名');
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_S)
      throw refuse('签名时间戳超出 5 分钟');
    if (this.platformSerial && serial !== this.platformSerial) throw refuse(`公钥 ID 或证书序列号不匹配（${serial}）`);
    const message = `${timestamp}\n${nonce}\n${body}\n`;
    if (
      !orElse(
        () => crypto.verify('sha256', Buffer.from(message, 'utf8'), this.platformKey, Buffer.from(signature, 'base64')),
        false,
      )
    ) {
      throw refuse('签名无效');
    }
  }

  /** One signed call of the merchant API; the answer's signature is checked. Null for 204. */
  private async call(method: 'GET' | 'POST', path: string, body?: Json): Promise<Json | null> {
    const bodyText = body ? JSON.stringify(body) : '';
    const timestamp = Math.floor(Date.now() / 1000).toString();
    const nonce = crypto.randomBytes(16).toString('hex');
    const signature = crypto
      .sign('sha256', Buffer.from(`${method}\n${path}\n${timestamp}\n${nonce}\n${bodyText}\n`, 'utf8'), this.privateKey)
      .toString('base64');
    const authorization = `WECHATPAY2-SHA256-RSA2048 mchid="${this.settings.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.settings.serialNo}"`;
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let response: Response;
    let answerText: string;
    try {
      response = await fetch(`${this.settings.apiUrl}${path}`, {
        method,
        signal,
        redirect: 'manual',
        headers: {
          authorization,
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'moredoc-site',
        },
        ...(body ? { body: bodyText } : {}),
      });
      answerText = await response.text();
    } catch (error) {
      if (signal.aborted) throw new PaymentProviderError('timeout', `${method} ${path}: no answer in time`);
      throw new PaymentProviderError(
        'unreachable',
        `${method} ${path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (answerText.length > MAX_ANSWER_BYTES)
      throw new PaymentProviderError('bad-answer', `${method} ${path}: answer too large`);
    const parsed = answerText ? orElse(() => asObject(JSON.parse(answerText)), null) : null;
    if (response.status >= 400) {
      throw new PaymentProviderError(
        'rejected',
        `${method} ${path}: HTTP ${response.status} ${text(parsed?.code)} ${text(parsed?.message)}`.trim(),
        text(parsed?.code),
      );
    }
    if (response.status !== 200 && response.status !== 204)
      throw new PaymentProviderError('bad-answer', `${method} ${path}: HTTP ${response.status}`);
    this.verifySignature(
      response.headers,
      answerText,
      (reason) => new PaymentProviderError('bad-answer', `${method} ${path}: ${reason}`),
    );
    if (response.status === 204) return null;
    if (!parsed) throw new PaymentProviderError('bad-answer', `${method} ${path}: not a JSON object`);
    return parsed;
  }
}
