import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { BackendContext } from '../../platform/context';
import { clientIp } from '../../wire/rpc';
import { notFound, unavailable } from '../../wire/errors';
import { paymentProvider } from './setup';
import {
  NotificationRefused,
  PaymentProviderError,
  type NotifyAnswer,
  type NotifyingProvider,
  type VerifiedNotification,
} from './providers/provider';
import { recordUnverifiedNotification } from './store';

// `POST /api/v1/pay/notify/alipay|wechat`: public, but only a notification the provider
// signed reaches the order module's `settle`. Refused ones change nothing and are kept for the
// admin. The gateway lets these paths through without CSRF or JSON checks.
//
// Anyone can post here, unauthenticated, as fast as they like. What such a post can cost is
// bounded: a notification refused before verification is kept among the newest
// UNVERIFIED_NOTIFICATIONS_KEPT only, its raw text cut short (store.ts), and its reason goes on
// the request's access line (at info), with a warn line at most every UNVERIFIED_WARN_EVERY_MS
// that counts them: the first refusal shows at once at LOG_LEVEL=warn (a wrong platform key
// refuses every genuine notification), a flood adds one line per interval. A verified
// notification refused for the order's sake (unknown order, another amount) is rare and
// matters: each one is kept with the others, unpruned, and logged at warn.

/** A warn line about notifications refused before verification at most this often. */
const UNVERIFIED_WARN_EVERY_MS = 10 * 60_000;

export type NotifyingProviderName = 'alipay' | 'wechat';

/** What the order module made of a verified notification. */
export interface SettleResult {
  /** `refused`: a genuine notification that does not fit the order (amount, unknown order). */
  outcome: 'paid' | 'repeated' | 'late' | 'ignored' | 'refused';
  reason: string;
}

/** Applies a verified notification (and records it, in the same transaction as its effect). */
export type Settle = (
  provider: NotifyingProviderName,
  notification: VerifiedNotification,
  ip: string,
) => Promise<SettleResult>;

function isNotifying(name: string): name is NotifyingProviderName {
  return name === 'alipay' || name === 'wechat';
}

/**
 * The warn lines about notifications refused before verification: one for the first, then
 * one at the first refusal UNVERIFIED_WARN_EVERY_MS or more after the last line, with the
 * latest's provider, reason and address, and `refused`: how many since the last line
 * (`since`), this one included.
 */
class UnverifiedRefusals {
  private lastLine: number | undefined;
  private count = 0;

  note(log: FastifyBaseLogger, details: { provider: string; reason: string; ip: string }): void {
    this.count += 1;
    const at = Date.now();
    if (this.lastLine !== undefined && at - this.lastLine < UNVERIFIED_WARN_EVERY_MS) return;
    const since = this.lastLine === undefined ? {} : { since: new Date(this.lastLine).toISOString() };
    log.warn({ ...details, refused: this.count, ...since }, 'payment notifications refused before verification');
    this.lastLine = at;
    this.count = 0;
  }
}

function send(reply: FastifyReply, answer: NotifyAnswer) {
  reply.code(answer.status);
  if (answer.contentType) reply.header('content-type', answer.contentType);
  return reply.send(answer.body ?? '');
}

export function registerNotifyRoutes(app: FastifyInstance, ctx: BackendContext, settle: Settle): void {
  const unverified = new UnverifiedRefusals();
  app.post<{ Params: { provider: string } }>('/api/v1/pay/notify/:provider', async (request, reply) => {
    const name = request.params.provider;
    if (!isNotifying(name)) throw notFound('不支持的支付渠道');
    const ip = clientIp(request);
    const body = typeof request.body === 'string' ? request.body : '';
    let provider: NotifyingProvider;
    try {
      // Configured is enough: an order started before the provider was switched off may still be paid.
      provider = (await paymentProvider(await ctx.settings.snapshot(), ctx.payment, name)) as NotifyingProvider;
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      // 503: the provider retries, and a fixed configuration can still take the payment. Anyone
      // can post here: the reason goes on the request's one access line (at info), no line of its own.
      request.expectedFailure = `payment notification for an unconfigured provider: ${error.message}`;
      throw unavailable(`${name === 'alipay' ? '支付宝' : '微信支付'}未配置`);
    }
    let verified: VerifiedNotification;
    try {
      verified = provider.verifyNotification({ headers: request.headers, body });
    } catch (error) {
      if (!(error instanceof NotificationRefused)) throw error;
      request.expectedFailure = `payment notification refused before verification: ${error.message}`;
      unverified.note(request.log, { provider: name, reason: error.message, ip });
      await recordUnverifiedNotification(ctx.db, {
        provider: name,
        order_no: error.orderNo.slice(0, 64),
        order_id: 0,
        trade_no: '',
        amount: 0,
        outcome: 'refused',
        reason: error.message,
        raw: error.raw,
        ip,
      });
      return send(reply, provider.answer(false, error.message));
    }
    const result = await settle(name, verified, ip);
    if (result.outcome === 'refused') {
      request.log.warn({ provider: name, reason: result.reason, ip }, 'payment notification refused');
    } else if (result.outcome === 'late') {
      request.log.warn(
        { provider: name, reason: result.reason },
        'payment arrived for an order that was no longer pending',
      );
    }
    return send(reply, provider.answer(result.outcome !== 'refused', result.reason));
  });
}
