import { usablePaymentProviders } from '../../../shared/config-rules';
import type { PaymentProviderName } from '../../../shared/vip';
import type { ConfigSnapshot } from '../../platform/config-store';
import type { PaymentEndpoints } from '../../platform/context';
import { AlipayProvider } from './providers/alipay';
import { readPrivateKey, readPublicKey } from './providers/keys';
import { ManualProvider } from './providers/manual';
import { PaymentProviderError, type PaymentProvider } from './providers/provider';
import { WechatPayProvider } from './providers/wechat';

// The `pay` config category (docs/api.md §1) turned into providers: which ones the
// checkout offers, each one built from its keys, and the checks UpdateConfig applies.

const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';
const ALIPAY_SANDBOX_GATEWAY = 'https://openapi-sandbox.dl.alipaydev.com/gateway.do';

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  alipay: '支付宝',
  wechat: '微信支付',
  manual: '线下转账',
};

/**
 * Chosen in `pay.provider` and configured, in our order; empty while `pay.enable` is off. The
 * rule is shared/config-rules.ts', which PUT /api/v1/config and the pay form apply too.
 */
export function offeredProviders(cfg: ConfigSnapshot): PaymentProviderName[] {
  return usablePaymentProviders((key) => {
    const [category = '', name = ''] = key.split('.');
    return cfg.str(category, name);
  });
}

const notifyBase = (cfg: ConfigSnapshot) =>
  (cfg.str('pay', 'notify_url').trim() || cfg.siteOrigin()).replace(/\/+$/, '');

/** `<pay.notify_url or system.domain>/api/v1/pay/notify/<provider>`. */
export function notifyUrlOf(cfg: ConfigSnapshot, provider: PaymentProviderName): string {
  return `${notifyBase(cfg)}/api/v1/pay/notify/${provider}`;
}

/** A provider that posts its results needs an address of this site to post them to (PaymentProviderError otherwise). */
export function assertNotifyAddress(cfg: ConfigSnapshot, provider: PaymentProviderName): void {
  if (provider !== 'manual' && !notifyBase(cfg))
    throw new PaymentProviderError('misconfigured', '尚未配置网站域名或支付回调地址，收不到支付结果');
}

/** Where the member's browser comes back: `pay.return_url`, else the checkout, with `order_no`. */
export function returnUrlOf(cfg: ConfigSnapshot, orderNo: string): string {
  const base = cfg.str('pay', 'return_url').trim() || `${cfg.siteOrigin()}/vip/checkout`;
  return `${base}${base.includes('?') ? '&' : '?'}order_no=${encodeURIComponent(orderNo)}`;
}

/** The provider built from the config; a PaymentProviderError('misconfigured') when its keys are unusable. */
export async function paymentProvider(
  cfg: ConfigSnapshot,
  endpoints: PaymentEndpoints,
  name: PaymentProviderName,
): Promise<PaymentProvider> {
  const pay = (key: string) => cfg.str('pay', key).trim();
  switch (name) {
    case 'alipay':
      return AlipayProvider.create({
        appId: pay('alipay_app_id'),
        privateKey: pay('alipay_private_key'),
        alipayPublicKey: pay('alipay_public_key'),
        gateway: endpoints.alipayGatewayUrl ?? (cfg.bool('pay', 'sandbox') ? ALIPAY_SANDBOX_GATEWAY : ALIPAY_GATEWAY),
        timeoutMs: endpoints.timeoutMs,
        notifyUrl: notifyUrlOf(cfg, 'alipay'),
      });
    case 'wechat':
      return new WechatPayProvider({
        appId: pay('wechat_app_id'),
        mchId: pay('wechat_mch_id'),
        serialNo: pay('wechat_serial_no'),
        privateKey: pay('wechat_private_key'),
        apiV3Key: cfg.str('pay', 'wechat_api_v3_key'),
        platformKey: pay('wechat_public_key'),
        platformKeyId: pay('wechat_public_key_id'),
        apiUrl: endpoints.wechatApiUrl,
        timeoutMs: endpoints.timeoutMs,
        notifyUrl: notifyUrlOf(cfg, 'wechat'),
      });
    case 'manual':
      return new ManualProvider(cfg.str('pay', 'manual_instructions'));
  }
}

/** null when `read` accepts the key, else `problem` (the config check prefixes the key's label). */
function keyProblem(read: () => unknown, problem: string): string | null {
  try {
    read();
    return null;
  } catch {
    return problem;
  }
}

const PRIVATE_KEY_PROBLEM = '不是有效的 RSA 私钥（PEM 或 base64，PKCS#1 或 PKCS#8）';
const PUBLIC_KEY_PROBLEM = '不是有效的公钥或证书（PEM 或 base64）';

/**
 * Checks of `PUT /api/v1/config` for the pay keys only the server can make (the keys are read
 * with Node's crypto); the timeout and the addresses are in shared/config-rules.ts.
 */
export const PAY_KEY_RULES: Record<string, (value: string) => string | null> = {
  'pay.wechat_api_v3_key': (v) => (v === '' || Buffer.byteLength(v, 'utf8') === 32 ? null : '应为 32 个字符'),
  'pay.alipay_private_key': (v) =>
    v.trim() === '' ? null : keyProblem(() => readPrivateKey(v, ''), PRIVATE_KEY_PROBLEM),
  'pay.wechat_private_key': (v) =>
    v.trim() === '' ? null : keyProblem(() => readPrivateKey(v, ''), PRIVATE_KEY_PROBLEM),
  'pay.alipay_public_key': (v) => (v.trim() === '' ? null : keyProblem(() => readPublicKey(v, ''), PUBLIC_KEY_PROBLEM)),
  'pay.wechat_public_key': (v) => (v.trim() === '' ? null : keyProblem(() => readPublicKey(v, ''), PUBLIC_KEY_PROBLEM)),
};
