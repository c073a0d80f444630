import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentProviderName } from '../../../../shared/vip';

// The one interface every way of paying implements (docs/api.md §9). Orders know nothing of
// Alipay or WeChat Pay: they start a payment, ask for a trade's state, close it, and receive
// verified notifications through these types.

/** What the member uses: a computer gets Alipay's page / WeChat's QR code, a phone the wap / H5 page. */
export const DEVICES = ['pc', 'mobile'] as const;
export type Device = (typeof DEVICES)[number];

export function isDevice(value: string): value is Device {
  return (DEVICES as readonly string[]).includes(value);
}

/** The order as a provider sees it. */
export interface PaymentSubject {
  orderNo: string;
  /** fen */
  amount: number;
  /** The line the member sees at the provider, e.g. `魔豆文库 年度会员`. */
  subject: string;
  /** The provider refuses payment after this moment (our order timeout). */
  expiresAt: Date;
  /** The member's address (WeChat H5 requires it). */
  clientIp: string;
  /** Where the browser comes back after paying (the checkout's result page). */
  returnUrl: string;
}

/** How the member pays: go to the provider's page, scan a code, or follow instructions. */
export type PaymentStart =
  { kind: 'redirect'; url: string } | { kind: 'qrcode'; codeUrl: string } | { kind: 'instructions'; text: string };

/** A payment the provider vouches for (signed notification or signed trade query). */
export interface ConfirmedPayment {
  orderNo: string;
  /** The provider's transaction number. */
  tradeNo: string;
  /** fen */
  amount: number;
  /** ISO 8601, when the provider says the member paid; null when it does not say. */
  paidAt: string | null;
}

export type TradeState = { paid: true; payment: ConfirmedPayment } | { paid: false; state: string };

/** A notification whose signature (and app/merchant) checked out. */
export type VerifiedNotification =
  | { kind: 'paid'; payment: ConfirmedPayment; raw: string }
  /** A genuine notification that asks nothing of us (trade created or closed at the provider). */
  | { kind: 'ignored'; orderNo: string; reason: string; raw: string };

export interface NotifyRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a notify route answers the provider. */
export interface NotifyAnswer {
  status: number;
  contentType?: string;
  body?: string;
}

/** A notification we do not believe or cannot use; nothing changes. */
export class NotificationRefused extends Error {
  override name = 'NotificationRefused';
  /** `raw`: what to keep for the admin (the body, with the decrypted resource when there is one). */
  constructor(
    message: string,
    readonly raw: string,
    readonly orderNo = '',
  ) {
    super(message);
  }
}

/**
 * - `misconfigured`: our keys or ids are missing or unreadable
 * - `rejected`: the provider refused the call (its code in `providerCode`)
 * - `unreachable`, `timeout`: no answer
 * - `bad-answer`: an answer we cannot read or whose signature does not verify
 */
export type PaymentFailure = 'misconfigured' | 'rejected' | 'unreachable' | 'timeout' | 'bad-answer';

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  constructor(
    readonly failure: PaymentFailure,
    message: string,
    readonly providerCode = '',
  ) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  start(order: PaymentSubject, device: Device): Promise<PaymentStart>;
  /** The trade's state at the provider (the active query when no notification came). */
  query(orderNo: string): Promise<TradeState>;
  /** Stops the provider from taking money for this order; an unknown trade is fine. */
  close(orderNo: string): Promise<void>;
}

/** A provider that posts signed notifications to `/api/v1/pay/notify/<name>`. */
export interface NotifyingProvider extends PaymentProvider {
  /** Throws NotificationRefused. */
  verifyNotification(request: NotifyRequest): VerifiedNotification;
  /** The answer that stops the provider's retries, or asks it to retry (`accepted: false`). */
  answer(accepted: boolean, message: string): NotifyAnswer;
}

/** Keeps what is stored for the admin to a sane size. */
export function clip(text: string, max = 16 * 1024): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `work()`, or `fallback` when it throws (parsing and verifying untrusted input). */
export function orElse<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    return fallback;
  }
}
