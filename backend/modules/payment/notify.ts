import type { FastifyInstance, FastifyReply } from 'fastify';
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
import { recordNotification } from './store';

// `POST /api/v1/pay/notify/alipay|wechat`: public, but only a notification the provider
// signed reaches the order module's `settle`. Refused ones change nothing and are kept (and
// logged) for the admin. The gateway lets these paths through without CSRF or JSON checks.

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

function send(reply: FastifyReply, answer: NotifyAnswer) {
  reply.code(answer.status);
  if (answer.contentType) reply.header('content-type', answer.contentType);
  return reply.send(answer.body ?? '');
}

export function registerNotifyRoutes(app: FastifyInstance, ctx: BackendContext, settle: Settle): void {
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
      request.log.warn(
        { provider: name, orderNo: error.orderNo, reason: error.message, ip },
        'payment notification refused',
      );
      await recordNotification(ctx.db, {
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
