import crypto from 'node:crypto';
import { PaymentProviderError } from './provider';

// Keys as operators paste them: PEM with its first and last lines, or the bare base64 that
// Alipay's key tool and open platform show; PKCS#1 or PKCS#8; a WeChat Pay platform
// certificate or the newer 微信支付公钥.

const BASE64 = /^[A-Za-z0-9+/=]+$/;

function bareDer(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  return compact && BASE64.test(compact) ? Buffer.from(compact, 'base64') : null;
}

/** An RSA private key; `label` names the config key in the error. */
export function readPrivateKey(text: string, label: string): crypto.KeyObject {
  const trimmed = text.trim();
  try {
    if (trimmed.includes('-----BEGIN')) return crypto.createPrivateKey(trimmed);
    const der = bareDer(trimmed);
    if (der) {
      for (const type of ['pkcs8', 'pkcs1'] as const) {
        try {
          return crypto.createPrivateKey({ key: der, format: 'der', type });
        } catch {
          // try the other encoding
        }
      }
    }
  } catch {
    // reported below
  }
  throw new PaymentProviderError('misconfigured', `${label}不是有效的 RSA 私钥`);
}

export interface PublicKeyWithSerial {
  key: crypto.KeyObject;
  /** The certificate's serial number (upper-case hex) when a certificate was given, else ''. */
  certificateSerial: string;
}

/** A public key given as PEM, bare base64 (SubjectPublicKeyInfo) or an X.509 certificate. */
export function readPublicKey(text: string, label: string): PublicKeyWithSerial {
  const trimmed = text.trim();
  try {
    if (trimmed.includes('-----BEGIN CERTIFICATE-----')) {
      const certificate = new crypto.X509Certificate(trimmed);
      return { key: certificate.publicKey, certificateSerial: certificate.serialNumber.toUpperCase() };
    }
    if (trimmed.includes('-----BEGIN')) return { key: crypto.createPublicKey(trimmed), certificateSerial: '' };
    const der = bareDer(trimmed);
    if (der) return { key: crypto.createPublicKey({ key: der, format: 'der', type: 'spki' }), certificateSerial: '' };
  } catch {
    // reported below
  }
  throw new PaymentProviderError('misconfigured', `${label}不是有效的公钥或证书`);
}

/** Beijing time as the providers write it: `2024-05-01 10:20:30`. */
export function beijingDateTime(date: Date): string {
  const shifted = new Date(date.getTime() + 8 * 3600_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`;
}

/** RFC 3339 in Beijing time, as WeChat Pay wants `time_expire`: `2024-05-01T10:20:30+08:00`. */
export function beijingRfc3339(date: Date): string {
  return `${beijingDateTime(date).replace(' ', 'T')}+08:00`;
}

/** `2024-05-01 10:20:30` in Beijing time → ISO 8601 (UTC); null when it is no such time. */
export function fromBeijingDateTime(text: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = new Date(`${match[1]}T${match[2]}+08:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Yuan as the providers write it (`30.00`) → fen; NaN when it is not such an amount. */
export function fenOfYuanText(text: string): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
