import type * as AlipayModule from 'alipay-sdk';
import { formatFen } from '../../../../shared/vip';
import { beijingDateTime, fenOfYuanText, fromBeijingDateTime, readPrivateKey, readPublicKey } from './keys';
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

// Alipay through its official SDK (alipay-sdk 4): computer and phone website payment
// (alipay.trade.page.pay / wap.pay) as a signed URL, the trade query and close (signed
// answers checked), and the asynchronous notification checked with Alipay's public key.
// The SDK (with urllib: about a third of a second of CPU) loads when a provider is first made,
// not at the start of every process.

export interface AlipaySettings {
  appId: string;
  /** The application's RSA2 private key as pasted (PEM or bare base64, PKCS#1 or #8). */
  privateKey: string;
  /** Alipay's public key ("支付宝公钥"), not the application's. */
  alipayPublicKey: string;
  /** `https://openapi.alipay.com/gateway.do`, the sandbox's, or a stand-in (PAY_ALIPAY_GATEWAY_URL). */
  gateway: string;
  timeoutMs: number;
  notifyUrl: string;
}

const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
const TRADE_NOT_EXIST = 'ACQ.TRADE_NOT_EXIST';

type AlipayAnswer = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function failureOf(error: unknown, sdk: typeof AlipayModule): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof sdk.AlipayRequestError) {
    if (/HttpClient Request error/.test(message)) {
      return new PaymentProviderError(/timeout/i.test(message) ? 'timeout' : 'unreachable', message);
    }
    return new PaymentProviderError('bad-answer', message);
  }
  return new PaymentProviderError('bad-answer', message);
}

export class AlipayProvider implements NotifyingProvider {
  readonly name = 'alipay' as const;
  private readonly sdk: AlipayModule.AlipaySdk;

  static async create(settings: AlipaySettings): Promise<AlipayProvider> {
    return new AlipayProvider(settings, await import('alipay-sdk'));
  }

  private constructor(
    private readonly settings: AlipaySettings,
    private readonly sdkModule: typeof AlipayModule,
  ) {
    if (!settings.appId || !settings.privateKey || !settings.alipayPublicKey) {
      throw new PaymentProviderError('misconfigured', '支付宝尚未配置 AppID、应用私钥和支付宝公钥');
    }
    const privateKey = readPrivateKey(settings.privateKey, '支付宝应用私钥')
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const publicKey = readPublicKey(settings.alipayPublicKey, '支付宝公钥')
      .key.export({ type: 'spki', format: 'pem' })
      .toString();
    this.sdk = new sdkModule.AlipaySdk({
      appId: settings.appId,
      privateKey,
      keyType: 'PKCS8',
      alipayPublicKey: publicKey,
      gateway: settings.gateway,
      timeout: settings.timeoutMs,
      camelcase: false,
    });
  }

  async start(order: PaymentSubject, device: Device): Promise<PaymentStart> {
    const mobile = device === 'mobile';
    const bizContent: Record<string, string> = {
      out_trade_no: order.orderNo,
      total_amount: formatFen(order.amount),
      subject: order.subject,
      product_code: mobile ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
      time_expire: beijingDateTime(order.expiresAt),
    };
    if (mobile) bizContent.quit_url = order.returnUrl;
    const url = this.sdk.pageExecute(mobile ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', 'GET', {
      bizContent,
      notifyUrl: this.settings.notifyUrl,
      returnUrl: order.returnUrl,
      timestamp: this.timestamp(),
    });
    return { kind: 'redirect', url };
  }

  async query(orderNo: string): Promise<TradeState> {
    const answer = await this.call('alipay.trade.query', orderNo);
    if (answer.code !== '10000') {
      if (answer.sub_code === TRADE_NOT_EXIST) return { paid: false, state: 'NOT_EXIST' };
      throw new PaymentProviderError(
        'rejected',
        `${text(answer.sub_code)} ${text(answer.sub_msg)}`.trim(),
        text(answer.sub_code) || text(answer.code),
      );
    }
    const state = text(answer.trade_status);
    if (!PAID_STATES.has(state)) return { paid: false, state };
    const amount = fenOfYuanText(text(answer.total_amount));
    if (text(answer.out_trade_no) !== orderNo || !Number.isFinite(amount))
      throw new PaymentProviderError('bad-answer', 'trade query answer without order number or amount');
    return {
      paid: true,
      payment: {
        orderNo,
        tradeNo: text(answer.trade_no),
        amount,
        paidAt: fromBeijingDateTime(text(answer.send_pay_date)),
      },
    };
  }

  async close(orderNo: string): Promise<void> {
    const answer = await this.call('alipay.trade.close', orderNo);
    if (answer.code !== '10000' && answer.sub_code !== TRADE_NOT_EXIST) {
      throw new PaymentProviderError(
        'rejected',
        `${text(answer.sub_code)} ${text(answer.sub_msg)}`.trim(),
        text(answer.sub_code),
      );
    }
  }

  verifyNotification(request: NotifyRequest): VerifiedNotification {
    const raw = clip(request.body);
    const params = Object.fromEntries(new URLSearchParams(request.body));
    const orderNo = params.out_trade_no ?? '';
    if (!params.sign) throw new NotificationRefused('缺少签名', raw, orderNo);
    // V2: the values are already form-decoded; the SDK must not decode them again.
    if (!orElse(() => this.sdk.checkNotifySignV2(params), false))
      throw new NotificationRefused('签名无效', raw, orderNo);
    if (params.app_id !== this.settings.appId)
      throw new NotificationRefused(`AppID 不匹配（${params.app_id ?? ''}）`, raw, orderNo);
    const state = params.trade_status ?? '';
    if (!PAID_STATES.has(state)) return { kind: 'ignored', orderNo, reason: `交易状态 ${state || '未知'}`, raw };
    const amount = fenOfYuanText(params.total_amount ?? '');
    if (!orderNo || !Number.isFinite(amount)) throw new NotificationRefused('缺少订单号或金额', raw, orderNo);
    return {
      kind: 'paid',
      payment: {
        orderNo,
        tradeNo: params.trade_no ?? '',
        amount,
        paidAt: fromBeijingDateTime(params.gmt_payment ?? ''),
      },
      raw,
    };
  }

  answer(accepted: boolean): NotifyAnswer {
    // Alipay stops retrying on exactly `success`; anything else is retried over about 25 h.
    return accepted
      ? { status: 200, contentType: 'text/plain', body: 'success' }
      : { status: 400, contentType: 'text/plain', body: 'fail' };
  }

  /** Alipay reads `timestamp` as Beijing time; the SDK would write the server's local time. */
  private timestamp(): string {
    return beijingDateTime(new Date());
  }

  private async call(method: string, orderNo: string): Promise<AlipayAnswer> {
    try {
      const answer: unknown = await this.sdk.exec(
        method,
        { bizContent: { out_trade_no: orderNo }, timestamp: this.timestamp() },
        { validateSign: true },
      );
      if (answer === null || typeof answer !== 'object')
        throw new PaymentProviderError('bad-answer', `${method}: no answer object`);
      return answer as AlipayAnswer;
    } catch (error) {
      throw failureOf(error, this.sdkModule);
    }
  }
}
