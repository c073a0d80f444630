import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isUniqueViolation, type Database } from '../../db';
import { databaseNow } from '../../db/dialect';
import type { ConfigSnapshot } from '../../platform/config-store';
import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { ApiError, Code, badGateway, badRequest, deadlineExceeded, notFound, unavailable } from '../../wire/errors';
import { checkText, positiveIds, requireIds } from '../../wire/request';
import {
  OrderStatus,
  REPLACED_CLOSE_REASON,
  TIMEOUT_CLOSE_REASON,
  TRANSFER_PROVIDER,
  VipAction,
  confirmableAfterClose,
  isPaymentProvider,
  orderStatusOptions,
  parseVipPlans,
  yuanToFen,
  type PaymentProviderName,
} from '../../../shared/vip';
import { optionLabel } from '../../../shared/constants';
import { SHORT_DATE_FORMAT, formatDate } from '../../../shared/format';
import { usernamesOf } from '../user/service';
import { orderConfirmed, orderRefunded, tell } from '../message/service';
import { vipDaysLeft, vipEndTooLate, withdrawVip, type Withdrawal } from '../vip/service';
import { ListPaymentNotificationReply, ListPaymentNotificationRequest } from '../../../shared/messages/payment';
import {
  DEVICES,
  PROVIDER_LABELS,
  PaymentProviderError,
  assertNotifyAddress,
  isDevice,
  listNotifications,
  offeredProviders,
  paymentProvider,
  recordNotification,
  registerNotifyRoutes,
  returnUrlOf,
  type Device,
} from '../payment/service';
import {
  CancelOrderRequest,
  CloseOrderReply,
  CloseOrderRequest,
  CreateOrderRequest,
  GetOrderRequest,
  ListMyOrderRequest,
  ListOrderReply,
  ListOrderRequest,
  Order,
  OrderDecisionRequest,
  PayOrderReply,
  PayOrderRequest,
} from '../../../shared/messages/order';
import { abandonTrade, closePending, markPaid, settleNotification, syncWithProvider } from './settle';
import {
  findOrder,
  findOrderByNo,
  findPendingOrder,
  insertOrder,
  listOrders,
  setDeadline,
  setProvider,
  setRefunded,
  type OrderRow,
} from './store';

// OrderAPI (ours, docs/api.md §10): a member orders a plan of the `vip` config (price and days
// copied into the order), pays it with a provider the config offers, polls it, cancels it;
// admins list, close, refund and confirm. Unpaid orders close after `pay.order_timeout`
// minutes (those submitted as transfers after `pay.manual_timeout` days) through a job of the
// durable queue, so a restart loses no timeout.

/** `expiresAt`: the deadline the job was queued for; a job whose order got another one leaves it to that one's job. */
const expireOrder = jobKind<{ orderId: number; expiresAt?: string }>('order.expire');

const DAY_MS = 24 * 3600_000;

/**
 * A transfer takes days, not minutes: an order submitted as one stays open `pay.manual_timeout`
 * days (3) from its creation instead of `pay.order_timeout` minutes, and closes then.
 */
async function giveTransferTime(ctx: RpcContext, order: OrderRow, cfg: ConfigSnapshot): Promise<void> {
  const days = Math.min(Math.max(cfg.int('pay', 'manual_timeout') || 3, 1), 30);
  const deadline = new Date(Date.parse(order.created_at) + days * DAY_MS);
  if (deadline.getTime() <= Date.parse(order.expires_at)) return;
  const expiresAt = deadline.toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await setDeadline(trx, order.id, expiresAt);
    await ctx.app.jobs.enqueue(
      expireOrder,
      { orderId: order.id, expiresAt },
      // What is left of the days by the database's clock (which wrote created_at), counted from
      // its now: the job then waits that long whatever the clock of this process or the worker.
      {
        delayMs: Math.max(deadline.getTime() - (await databaseNow(trx)).getTime(), 0),
        dedupeKey: `order.expire:${order.id}:${expiresAt}`,
        executor: trx,
      },
    );
  });
}
const ORDER_NOT_FOUND = '订单不存在';
const MAX_PAGE_SIZE = 100;

/** The order as the wire shows it; the admin's notes only to admins. */
function orderView(row: OrderRow, admin: boolean) {
  return { ...row, user_id: row.buyer_id, username: row.buyer_name, remark: admin ? row.remark : '' };
}

/** `20240501102030` + 8 random digits: sortable, 22 characters (WeChat allows 32, Alipay 64). */
function newOrderNo(): string {
  const beijing = new Date(Date.now() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `${beijing}${crypto.randomInt(0, 100_000_000).toString().padStart(8, '0')}`;
}

const pageSize = (size: number) => (size > 0 ? Math.min(size, MAX_PAGE_SIZE) : 10);

function reasonOf(value: string, label = '原因'): string {
  return checkText(value.trim(), label, { required: true, max: 255, multiline: true });
}

/** `[2026-11-28 18:23 管理员 admin] 确认收款：…`: the site's time (as the order's own times show), the admin's name. */
async function adminNote(ctx: RpcContext, action: string, reason: string): Promise<string> {
  const id = ctx.user?.id ?? 0;
  const name = (await usernamesOf(ctx.db, [id])).get(id) ?? `#${id}`;
  return `[${formatDate(new Date(), SHORT_DATE_FORMAT)} 管理员 ${name}] ${action}：${reason}`;
}

function failedPrecondition(message: string): ApiError {
  return new ApiError(Code.FailedPrecondition, message);
}

function notPendingMessage(order: OrderRow): string {
  return `订单${optionLabel(orderStatusOptions, order.status)}，无法继续支付`;
}

/** A provider's failure as the member sees it (details only in the log). */
function providerFailure(ctx: RpcContext, provider: PaymentProviderName, error: unknown): ApiError {
  if (!(error instanceof PaymentProviderError)) throw error;
  ctx.request.log.warn({ provider, failure: error.failure, detail: error.message }, 'payment provider call failed');
  const label = PROVIDER_LABELS[provider];
  switch (error.failure) {
    case 'misconfigured':
      return unavailable(`${label}配置有误，请联系管理员`);
    case 'rejected':
      return badGateway(`${label}拒绝了支付请求（${error.providerCode || '未知错误'}），请稍后再试或联系管理员`);
    case 'timeout':
      return deadlineExceeded(`${label}响应超时，请稍后再试`);
    case 'unreachable':
      return badGateway(`无法连接${label}，请稍后再试`);
    case 'bad-answer':
      return badGateway(`${label}返回了无法识别的应答，请稍后再试`);
  }
}

/** The caller's own order by number; someone else's is as unknown as a missing one. */
async function ownOrder(ctx: RpcContext, orderNo: string): Promise<OrderRow> {
  const me = ctx.requireUser();
  const number = orderNo.trim();
  if (!number) throw badRequest('请提供订单号（参数 order_no）');
  const order = number.length <= 64 ? await findOrderByNo(ctx.db, number) : undefined;
  if (!order || order.buyer_id !== me.id) throw notFound(ORDER_NOT_FOUND);
  return order;
}

/**
 * What the buyer of a pending order submitted as a transfer reads again when coming back to
 * it: the instructions PayOrder gave (while the config still offers the transfer).
 */
async function transferInstructions(ctx: RpcContext, order: OrderRow): Promise<string> {
  if (order.status !== OrderStatus.Pending || order.provider !== 'manual') return '';
  const cfg = await ctx.app.settings.snapshot();
  return offeredProviders(cfg).includes('manual') ? cfg.str('pay', 'manual_instructions') : '';
}

async function orderOr404(db: Database, id: number): Promise<OrderRow> {
  const order = id > 0 ? await findOrder(db, id) : undefined;
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

/** Whether a member's pending order is still the one to pay for this plan: same plan, price and days, not past its deadline. */
function stillFor(order: OrderRow, plan: { code: string; days: number; amount: number }, now: Date): boolean {
  return (
    order.plan_code === plan.code &&
    order.amount === plan.amount &&
    order.days === plan.days &&
    Date.parse(order.expires_at) > now.getTime()
  );
}

/**
 * The member's order for this plan: their pending order while it is still the one to pay (a double
 * click makes one order), else a new one (with its timeout job). A member holds one pending order at
 * a time, as a shop's checkout does: one for another plan, or whose price or days changed, is closed
 * first as the member's own 取消 would close it (its provider asked, its trade there closed), so that
 * two plans are never both paid. One submitted as a transfer is left for the admin to confirm: the
 * member may have sent the money, and cancels it first if they changed their mind.
 */
async function placeOrder(
  ctx: RpcContext,
  plan: { code: string; title: string; days: number; amount: number },
): Promise<OrderRow> {
  const me = ctx.requireUser();
  const cfg = await ctx.app.settings.snapshot();
  const timeoutMinutes = Math.min(Math.max(cfg.int('pay', 'order_timeout'), 1), 1440);
  const username = (await usernamesOf(ctx.db, [me.id])).get(me.id) ?? '';
  for (let attempt = 0; ; attempt += 1) {
    // Outside the transaction: closing asks the provider, which no transaction waits for.
    const held = await findPendingOrder(ctx.db, me.id);
    const now = await databaseNow(ctx.db);
    if (held && stillFor(held, plan, now)) return held;
    if (held) {
      const expired = Date.parse(held.expires_at) <= now.getTime();
      if (held.provider === TRANSFER_PROVIDER && !expired)
        throw failedPrecondition(
          `您的订单 ${held.order_no}（${held.plan_title}）已提交转账，正在等待确认；如需改买其他套餐，请先取消该订单`,
        );
      // Past its deadline, it closes as timed out, its job not run yet (a transfer's can still be
      // confirmed, decision 055).
      await closePending(ctx.app, held, expired ? TIMEOUT_CLOSE_REASON : REPLACED_CLOSE_REASON, ctx.request.log);
    }
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        // The database's now, as the queue's: a machine whose clock drifted writes the same times.
        const placedAt = await databaseNow(trx);
        const expiresAt = new Date(placedAt.getTime() + timeoutMinutes * 60_000);
        const order = await insertOrder(
          trx,
          {
            order_no: newOrderNo(),
            buyer_id: me.id,
            buyer_name: username,
            plan_code: plan.code,
            plan_title: plan.title,
            days: plan.days,
            amount: plan.amount,
            expires_at: expiresAt.toISOString(),
            ip: ctx.ip,
          },
          placedAt,
        );
        await ctx.app.jobs.enqueue(
          expireOrder,
          { orderId: order.id, expiresAt: order.expires_at },
          // pay.order_timeout from the database's now, as every wait of the queue.
          { delayMs: timeoutMinutes * 60_000, dedupeKey: `order.expire:${order.id}`, executor: trx },
        );
        return order;
      });
    } catch (error) {
      // Another request of the member's placed one meanwhile (a double click, another process):
      // the loop finds it, the order when it is for this plan, else closed for this one.
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

async function registerOrderRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  registerNotifyRoutes(app, ctx, settleNotification(ctx.db));
  ctx.jobs.register(
    expireOrder,
    async ({ orderId, expiresAt }) => {
      const order = await findOrder(ctx.db, orderId);
      if (order?.status !== OrderStatus.Pending) return;
      if (expiresAt && order.expires_at !== expiresAt) return;
      await closePending(ctx, order, 'timeout', app.log);
    },
    { concurrency: 2, timeoutMs: 60_000, maxAttempts: 5 },
  );
}

export const orderService = defineService(
  'OrderAPI',
  [
    rpc('CreateOrder', {
      http: 'POST /api/v1/order',
      request: CreateOrderRequest,
      response: Order,
      auth: 'login',
      async handler(req, ctx) {
        ctx.requireUser();
        const cfg = await ctx.app.settings.snapshot();
        if (!cfg.bool('vip', 'enable')) throw failedPrecondition('VIP 会员暂未开放购买');
        if (!offeredProviders(cfg).length) throw failedPrecondition('暂未开放在线支付，请联系管理员');
        const plan = parseVipPlans(cfg.str('vip', 'plans')).find((p) => p.code === req.plan_code.trim());
        if (!plan) throw badRequest('套餐不存在或已下架');
        if (!Number.isFinite(req.price) || req.price <= 0) throw badRequest('价格无效（参数 price）');
        const amount = yuanToFen(plan.price);
        if (yuanToFen(req.price) !== amount) throw failedPrecondition('套餐价格已变更，请刷新页面后重新下单');
        // A plan that would end the period past VIP_END_MAX is not sold (the payment would buy nothing).
        const daysLeft = await vipDaysLeft(ctx.db, ctx.requireUser().id);
        if (plan.days > daysLeft) throw vipEndTooLate(daysLeft);
        const order = await placeOrder(ctx, { code: plan.code, title: plan.title, days: plan.days, amount });
        return orderView(order, false);
      },
    }),

    rpc('PayOrder', {
      http: 'POST /api/v1/order/pay',
      request: PayOrderRequest,
      response: PayOrderReply,
      auth: 'login',
      async handler(req, ctx) {
        const order = await ownOrder(ctx, req.order_no);
        if (order.status !== OrderStatus.Pending) throw failedPrecondition(notPendingMessage(order));
        if (Date.parse(order.expires_at) <= (await databaseNow(ctx.db)).getTime())
          throw failedPrecondition('订单已超时，请重新下单');
        if (!isPaymentProvider(req.provider)) throw badRequest('请选择支付方式（参数 provider）');
        // Left out (or empty, the wire's zero value): a computer, as before the check.
        if (req.device !== '' && !isDevice(req.device))
          throw badRequest(`设备类型无效（参数 device），只能是 ${DEVICES.join(' 或 ')}`);
        const device: Device = req.device === 'mobile' ? 'mobile' : 'pc';
        const cfg = await ctx.app.settings.snapshot();
        if (!offeredProviders(cfg).includes(req.provider))
          throw badRequest(`暂不支持${PROVIDER_LABELS[req.provider]}，请选择其他支付方式`);
        let started;
        try {
          assertNotifyAddress(cfg, req.provider);
          const provider = await paymentProvider(cfg, ctx.app.payment, req.provider);
          // A trade left open at another provider could take the same order's money twice.
          if (order.provider && order.provider !== req.provider) await abandonTrade(ctx.app, order, ctx.request.log);
          await setProvider(ctx.db, order.id, req.provider);
          if (req.provider === 'manual') await giveTransferTime(ctx, order, cfg);
          started = await provider.start(
            {
              orderNo: order.order_no,
              amount: order.amount,
              subject: `${cfg.str('system', 'sitename') || '魔豆文库'} ${order.plan_title}`,
              expiresAt: new Date(order.expires_at),
              clientIp: ctx.ip,
              returnUrl: returnUrlOf(cfg, order.order_no),
            },
            device,
          );
        } catch (error) {
          throw providerFailure(ctx, req.provider, error);
        }
        const current = (await findOrder(ctx.db, order.id)) ?? order;
        return {
          order: orderView(current, false),
          provider: req.provider,
          pay_url: started.kind === 'redirect' ? started.url : '',
          code_url: started.kind === 'qrcode' ? started.codeUrl : '',
          instructions: started.kind === 'instructions' ? started.text : '',
        };
      },
    }),

    rpc('CancelOrder', {
      http: 'PUT /api/v1/order/cancel',
      request: CancelOrderRequest,
      response: Order,
      auth: 'login',
      async handler(req, ctx) {
        const order = await ownOrder(ctx, req.order_no);
        if (order.status !== OrderStatus.Pending)
          throw failedPrecondition(`订单${optionLabel(orderStatusOptions, order.status)}，无法取消`);
        return orderView(await closePending(ctx.app, order, 'cancel', ctx.request.log), false);
      },
    }),

    rpc('GetOrder', {
      http: 'GET /api/v1/order',
      request: GetOrderRequest,
      response: Order,
      auth: 'login',
      permission: '查看订单详情',
      async handler(req, ctx) {
        const me = ctx.requireUser();
        const order =
          req.id > 0
            ? await findOrder(ctx.db, req.id)
            : req.order_no.trim()
              ? await findOrderByNo(ctx.db, req.order_no.trim())
              : undefined;
        if (!order || (order.buyer_id !== me.id && !ctx.permitted)) throw notFound(ORDER_NOT_FOUND);
        if (order.buyer_id !== me.id) return orderView(order, ctx.permitted);
        // The member is back or polling: ask the provider when no notification came yet.
        const current = await syncWithProvider(ctx.app, order, ctx.request.log);
        return { ...orderView(current, ctx.permitted), instructions: await transferInstructions(ctx, current) };
      },
    }),

    rpc('ListMyOrder', {
      http: 'GET /api/v1/order/mine',
      request: ListMyOrderRequest,
      response: ListOrderReply,
      auth: 'login',
      async handler(req, ctx) {
        const me = ctx.requireUser();
        const { rows, total } = await listOrders(ctx.db, {
          buyerIds: [me.id],
          statuses: [...new Set(req.status)],
          providers: [],
          wd: '',
          createdFrom: null,
          createdTo: null,
          order: '',
          page: req.page,
          size: pageSize(req.size),
        });
        return { total, order: rows.map((row) => orderView(row, false)) };
      },
    }),

    rpc('ListOrder', {
      http: 'GET /api/v1/order/list',
      request: ListOrderRequest,
      response: ListOrderReply,
      auth: 'perm',
      permission: '获取订单列表',
      async handler(req, ctx) {
        const { rows, total } = await listOrders(ctx.db, {
          buyerIds: positiveIds(req.user_id),
          statuses: [...new Set(req.status)],
          providers: [...new Set(req.provider.filter(Boolean))],
          wd: req.wd,
          createdFrom: req.created_from,
          createdTo: req.created_to,
          order: req.order,
          page: req.page,
          size: pageSize(req.size),
        });
        return { total, order: rows.map((row) => orderView(row, true)) };
      },
    }),

    rpc('CloseOrder', {
      http: 'PUT /api/v1/order/close',
      request: CloseOrderRequest,
      response: CloseOrderReply,
      auth: 'perm',
      permission: '关闭订单',
      async handler(req, ctx) {
        const ids = requireIds(req.id, '订单');
        const reason = reasonOf(req.reason);
        const orders = await Promise.all(ids.map((id) => orderOr404(ctx.db, id)));
        // A batch whose orders changed since the admin's list closes the pending ones and names
        // the rest; refused only when none is pending, as one order's close is.
        const pending = orders.filter((o) => o.status === OrderStatus.Pending);
        const notPending = orders.find((o) => o.status !== OrderStatus.Pending);
        if (pending.length === 0 && notPending)
          throw failedPrecondition(
            `订单 ${notPending.order_no} ${optionLabel(orderStatusOptions, notPending.status)}，只能关闭待支付的订单`,
          );
        const note = await adminNote(ctx, '关闭', reason);
        const closed: number[] = [];
        // Not pending when asked, or paid at the provider when closePending asked it.
        const skipped = orders.filter((o) => o.status !== OrderStatus.Pending);
        for (const order of pending) {
          const after = await closePending(ctx.app, order, 'admin', ctx.request.log, note);
          if (after.status === OrderStatus.Closed) closed.push(after.id);
          else skipped.push(after);
        }
        return { closed, skipped: skipped.map((o) => orderView(o, true)) };
      },
    }),

    rpc('RefundOrder', {
      http: 'PUT /api/v1/order/refund',
      request: OrderDecisionRequest,
      response: Order,
      auth: 'perm',
      permission: '订单退款',
      async handler(req, ctx) {
        const admin = ctx.requireUser();
        const reason = reasonOf(req.reason, '退款原因');
        const order = await orderOr404(ctx.db, req.id);
        const note = await adminNote(ctx, '退款', reason);
        await ctx.db.transaction().execute(async (trx) => {
          const refunded = await setRefunded(trx, order.id, note);
          if (!refunded) throw failedPrecondition('只有已支付的订单或关闭后到账的订单可以退款');
          let withdrawn: Withdrawal | null = null;
          // Only a paid order granted days; a late payment on a closed order never did.
          if (order.status === OrderStatus.Paid && order.vip_start_at && order.vip_end_at) {
            withdrawn = await withdrawVip(
              trx,
              order.buyer_id,
              { from: order.vip_start_at, until: order.vip_end_at },
              {
                action: VipAction.Refund,
                orderId: order.id,
                operatorId: admin.id,
                reason,
              },
            );
          }
          await tell(trx, [orderRefunded(order, withdrawn)]);
        });
        return orderView(await orderOr404(ctx.db, order.id), true);
      },
    }),

    rpc('ConfirmOrder', {
      http: 'PUT /api/v1/order/confirm',
      request: OrderDecisionRequest,
      response: Order,
      auth: 'perm',
      permission: '确认收款',
      async handler(req, ctx) {
        const admin = ctx.requireUser();
        const reason = reasonOf(req.reason, '收款说明');
        const order = await orderOr404(ctx.db, req.id);
        // A transfer closed by its timeout is re-opened too: the member may have paid while the admin was away.
        const reopening = confirmableAfterClose(order);
        if (order.status !== OrderStatus.Pending && !reopening)
          throw failedPrecondition('只有待支付的订单、关闭后到账的订单或超时关闭的转账订单可以确认收款');
        const provider: PaymentProviderName = isPaymentProvider(order.provider) ? order.provider : 'manual';
        const note = await adminNote(ctx, '确认收款', reason);
        await ctx.db.transaction().execute(async (trx) => {
          const paid = await markPaid(
            trx,
            order,
            {
              provider,
              tradeNo: order.trade_no,
              amount: order.amount,
              paidAt: null,
              note,
            },
            reopening ? OrderStatus.Closed : OrderStatus.Pending,
          );
          if (!paid) throw failedPrecondition('订单状态已变化，请刷新后重试');
          await recordNotification(trx, {
            provider,
            order_no: order.order_no,
            order_id: order.id,
            trade_no: order.trade_no,
            amount: order.amount,
            outcome: 'paid',
            reason: `管理员确认收款：${reason}`,
            raw: JSON.stringify({ confirmed_by: admin.id, reason }),
            ip: ctx.ip,
          });
          // The interval the payment added ends where the buyer's period now ends (none: the account is gone).
          const paidOrder = await findOrder(trx, order.id);
          if (paidOrder?.vip_end_at) await tell(trx, [orderConfirmed(paidOrder, paidOrder.vip_end_at)]);
        });
        return orderView(await orderOr404(ctx.db, order.id), true);
      },
    }),

    rpc('ListPaymentNotification', {
      http: 'GET /api/v1/order/notification',
      request: ListPaymentNotificationRequest,
      response: ListPaymentNotificationReply,
      auth: 'perm',
      permission: '查看支付通知',
      async handler(req, ctx) {
        const { rows, total } = await listNotifications(ctx.db, {
          orderNo: req.order_no.trim(),
          outcomes: [...new Set(req.outcome.filter(Boolean))],
          providers: [...new Set(req.provider.filter(Boolean))],
          page: req.page,
          size: pageSize(req.size),
        });
        return { total, notification: rows };
      },
    }),
  ],
  { routes: registerOrderRoutes },
);
