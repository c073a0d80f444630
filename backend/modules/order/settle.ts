import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import { lockRows } from '../../db/dialect';
import type { BackendContext } from '../../platform/context';
import { OrderStatus, VipAction, formatFen, type PaymentProviderName } from '../../../shared/vip';
import { existingUserIds } from '../user/service';
import { extendVip } from '../vip/service';
import {
  PaymentProviderError,
  paymentProvider,
  recordNotification,
  type ConfirmedPayment,
  type NotifyingProviderName,
  type SettleResult,
  type VerifiedNotification,
} from '../payment/service';
import {
  claimCheck,
  findOrder,
  findOrderByNo,
  setClosed,
  setGrantedInterval,
  setLatePayment,
  setPaid,
  type OrderRow,
} from './store';

// Where every way of paying ends (docs/api.md §9): `markPaid` turns a pending order paid once
// and extends the buyer's VIP period in the same transaction; notifications, the active
// trade query and the admin's confirmation all go through it and leave a notification row.

/** How often a pending order may ask its provider for the trade state (polling, returns). */
const CHECK_INTERVAL_MS = 5000;

export interface PaymentFacts {
  provider: PaymentProviderName;
  tradeNo: string;
  amount: number;
  /** When the provider says it was paid; null: now, by the database's clock. */
  paidAt: string | null;
  note?: string;
}

/**
 * pending (or, for an admin re-opening it, a closed order `confirmableAfterClose`) → paid, and the
 * plan's days added to the buyer's period. False when the order was not in `from`: nothing
 * changed (a repeated or concurrent notification).
 */
export async function markPaid(
  trx: Database,
  order: OrderRow,
  facts: PaymentFacts,
  from: OrderStatus = OrderStatus.Pending,
): Promise<boolean> {
  const paid = await setPaid(trx, order.id, from, {
    provider: facts.provider,
    trade_no: facts.tradeNo,
    paid_amount: facts.amount,
    paid_at: facts.paidAt,
    ...(facts.note ? { note: facts.note } : {}),
  });
  if (!paid) return false;
  // A buyer whose account was deleted meanwhile has no period to extend; the order is still paid.
  if ((await existingUserIds(trx, [order.buyer_id])).length) {
    const interval = await extendVip(trx, order.buyer_id, order.days, {
      action: VipAction.Purchase,
      orderId: order.id,
      plan: { code: order.plan_code, title: order.plan_title },
      reason: `订单 ${order.order_no}`,
      // Paid is paid: past VIP_END_MAX (orders placed before grants filled the period) the period ends there.
      capAtMax: true,
    });
    await setGrantedInterval(trx, order.id, interval);
  }
  return true;
}

function describeMismatch(payment: ConfirmedPayment, order: OrderRow): string {
  return `金额不符：到账 ${formatFen(payment.amount)} 元，订单 ${formatFen(order.amount)} 元`;
}

/**
 * The order a payment is for, read under its row lock: notifications (and queries) of one
 * order take turns, each deciding on what the one before it wrote.
 */
async function lockedOrder(trx: Database, orderNo: string): Promise<OrderRow | undefined> {
  const found = await findOrderByNo(trx, orderNo);
  if (!found) return undefined;
  await lockRows(trx, 'orders', [found.id]);
  return findOrder(trx, found.id);
}

/** Applies a confirmed payment to its order, inside `trx`; records what happened. */
async function applyPayment(
  trx: Database,
  provider: PaymentProviderName,
  payment: ConfirmedPayment,
  source: { raw: string; ip: string; via?: string },
): Promise<SettleResult> {
  const order = await lockedOrder(trx, payment.orderNo);
  let result: SettleResult;
  if (!order) {
    result = { outcome: 'refused', reason: '订单不存在' };
  } else if (payment.amount !== order.amount) {
    result = { outcome: 'refused', reason: describeMismatch(payment, order) };
  } else if (order.status === OrderStatus.Pending) {
    const paid = await markPaid(trx, order, {
      provider,
      tradeNo: payment.tradeNo,
      amount: payment.amount,
      paidAt: payment.paidAt,
    });
    result = paid ? { outcome: 'paid', reason: source.via ?? '' } : { outcome: 'repeated', reason: '订单状态已变化' };
  } else if (
    (order.status === OrderStatus.Paid || order.status === OrderStatus.Refunded) &&
    order.trade_no === payment.tradeNo &&
    order.provider === provider
  ) {
    result = { outcome: 'repeated', reason: '重复通知，订单已处理' };
  } else if (order.status === OrderStatus.Closed) {
    await setLatePayment(trx, order.id, { provider, trade_no: payment.tradeNo, paid_amount: payment.amount });
    result = { outcome: 'late', reason: '订单关闭后到账：请退款，或确认收款重新开通' };
  } else {
    result = { outcome: 'late', reason: '订单已通过另一笔付款支付：请在商户平台退还这一笔' };
  }
  await recordNotification(trx, {
    provider,
    order_no: payment.orderNo.slice(0, 64),
    order_id: order?.id ?? 0,
    trade_no: payment.tradeNo.slice(0, 64),
    amount: payment.amount,
    outcome: result.outcome,
    reason: result.reason,
    raw: source.raw,
    ip: source.ip,
  });
  return result;
}

/** The notify routes' `settle`: one transaction per notification. */
export function settleNotification(db: Database) {
  return (provider: NotifyingProviderName, notification: VerifiedNotification, ip: string): Promise<SettleResult> =>
    db.transaction().execute(async (trx) => {
      if (notification.kind === 'paid')
        return applyPayment(trx, provider, notification.payment, { raw: notification.raw, ip });
      const order = notification.orderNo ? await findOrderByNo(trx, notification.orderNo) : undefined;
      await recordNotification(trx, {
        provider,
        order_no: notification.orderNo.slice(0, 64),
        order_id: order?.id ?? 0,
        trade_no: '',
        amount: 0,
        outcome: 'ignored',
        reason: notification.reason,
        raw: notification.raw,
        ip,
      });
      return { outcome: 'ignored', reason: notification.reason };
    });
}

const isOnline = (provider: string): provider is NotifyingProviderName =>
  provider === 'alipay' || provider === 'wechat';

/**
 * The active query: asks the order's provider whether it was paid (no notification came,
 * the member is back or polling, the order is about to close), at most every 5 s per order.
 * Returns the order as it is afterwards. Provider failures are logged, never thrown.
 */
export async function syncWithProvider(
  app: BackendContext,
  order: OrderRow,
  log: FastifyBaseLogger,
  force = false,
): Promise<OrderRow> {
  if (order.status !== OrderStatus.Pending || !isOnline(order.provider)) return order;
  if (!force && !(await claimCheck(app.db, order.id, CHECK_INTERVAL_MS))) return order;
  try {
    const provider = await paymentProvider(await app.settings.snapshot(), app.payment, order.provider);
    const state = await provider.query(order.order_no);
    if (!state.paid) return order;
    const raw = JSON.stringify({ query: 'trade', provider: order.provider, payment: state.payment });
    const result = await app.db
      .transaction()
      .execute((trx) =>
        applyPayment(trx, order.provider as PaymentProviderName, state.payment, { raw, ip: '', via: '主动查询' }),
      );
    if (result.outcome === 'refused')
      log.warn({ orderNo: order.order_no, reason: result.reason }, 'trade query result refused');
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.warn(
      { orderNo: order.order_no, provider: order.provider, failure: error.failure, detail: error.message },
      'payment trade query failed',
    );
  }
  return (await findOrder(app.db, order.id)) ?? order;
}

/** Closes the order's trade at its provider (PaymentProviderError when that fails). */
async function closeTrade(app: BackendContext, name: PaymentProviderName, orderNo: string): Promise<void> {
  const provider = await paymentProvider(await app.settings.snapshot(), app.payment, name);
  await provider.close(orderNo);
}

/**
 * Closes a pending order (member's cancel, admin's close, timeout): asks the provider first
 * (a payment made meanwhile wins), then closes the trade there so it takes no more money.
 */
export async function closePending(
  app: BackendContext,
  order: OrderRow,
  reason: string,
  log: FastifyBaseLogger,
  note?: string,
): Promise<OrderRow> {
  const synced = await syncWithProvider(app, order, log, true);
  if (synced.status !== OrderStatus.Pending) return synced;
  if (isOnline(order.provider)) {
    try {
      await closeTrade(app, order.provider, order.order_no);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      // A payment that still gets through arrives as a late notification, kept for the admin.
      log.warn(
        { orderNo: order.order_no, provider: order.provider, failure: error.failure, detail: error.message },
        'closing the trade at the provider failed',
      );
    }
  }
  await setClosed(app.db, order.id, reason, note);
  return (await findOrder(app.db, order.id)) ?? order;
}

/** Leaves the trade at a provider the member no longer uses for this order (switching provider). */
export async function abandonTrade(app: BackendContext, order: OrderRow, log: FastifyBaseLogger): Promise<void> {
  if (!isOnline(order.provider)) return;
  try {
    await closeTrade(app, order.provider, order.order_no);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.warn(
      { orderNo: order.order_no, provider: order.provider, detail: error.message },
      'closing the previous trade failed',
    );
  }
}
