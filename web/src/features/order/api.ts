// OrderAPI (ours, docs/api.md §10): the member orders a plan, pays it with a provider the
// config offers, polls it, cancels it; admins list, close, refund and confirm, and read the
// payment notifications. Amounts are fen. Writes that can pay an order also make the VIP
// state and the account stale.
import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { nothingAnswered } from '../../../../shared/api-failure';
import type {
  CloseOrderReply,
  CreateOrderRequest,
  ListOrderReply,
  ListOrderRequest,
  ListPaymentNotificationReply,
  Order,
  PayOrderReply,
  PayOrderRequest,
} from '../../../../shared/types/order';
import { OrderStatus, orderStatusOptions } from '../../../../shared/vip';
import { optionLabel } from '../../../../shared/constants';
import { api, unwrap, type ApiResult } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { refreshSessionUser } from '../session/session-actions';
import { settingsKeys } from '../settings/api';
import { userKeys } from '../user/api';
import { vipKeys } from '../vip/api';

/** Under `userKeys.all`: the member's own orders (and the admin's lists), which a sign-out drops. */
export const orderKeys = {
  all: [...userKeys.all, 'order'] as const,
  mine: (page: number, size: number) => [...userKeys.all, 'order', 'mine', page, size] as const,
  minePending: [...userKeys.all, 'order', 'mine', 'pending'] as const,
  one: (orderNo: string) => [...userKeys.all, 'order', 'one', orderNo] as const,
  admin: [...userKeys.all, 'order', 'admin'] as const,
  notifications: (orderNo: string) => [...userKeys.all, 'order', 'admin', 'notification', orderNo] as const,
  notificationLog: (outcome: string, page: number) =>
    [...userKeys.all, 'order', 'admin', 'notification-log', outcome, page] as const,
};

export const myOrdersQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: orderKeys.mine(page, size),
    queryFn: async () => unwrap(await api.get<ListOrderReply>('/api/v1/order/mine', { page, size })),
    staleTime: 0,
  });

/** The member's pending orders, the latest first (one is enough to say what it waits for; `total` counts them). */
export const myPendingOrdersQuery = () =>
  queryOptions({
    queryKey: orderKeys.minePending,
    queryFn: async () =>
      unwrap(await api.get<ListOrderReply>('/api/v1/order/mine', { page: 1, size: 1, status: [OrderStatus.Pending] })),
    staleTime: 0,
  });

/**
 * One of the member's orders. While `pollMs` is set and the order is pending, it is fetched
 * again every `pollMs` (each fetch lets the backend ask the provider, at most every 5 s), also
 * after a poll that failed; not when the order could not be read at all.
 */
export const orderQuery = (orderNo: string, pollMs?: number) =>
  queryOptions({
    queryKey: orderKeys.one(orderNo),
    queryFn: async () => unwrap(await api.get<Order>('/api/v1/order', { order_no: orderNo })),
    staleTime: 0,
    refetchInterval: (query) =>
      pollMs &&
      (query.state.data?.status ?? OrderStatus.Pending) === OrderStatus.Pending &&
      (query.state.data !== undefined || !query.state.error)
        ? pollMs
        : false,
  });

/** An order that turned paid changed the VIP period: refresh what shows it, the session's user (the header) too. */
export async function refreshAfterPaid(client: QueryClient): Promise<void> {
  await Promise.all(
    [vipKeys.mine, userKeys.current, orderKeys.all].map((queryKey) => client.invalidateQueries({ queryKey })),
  );
  // Not through currentUserQuery, which ends the session on any failure: a failed refresh here
  // only leaves the header's old state until the next load.
  await refreshSessionUser();
}

const memberStale = [orderKeys.all, vipKeys.mine, userKeys.current];

/**
 * A write of orders: when it succeeded, `stale` refreshes; when the server refused it, the
 * order lists refresh too, since a refusal (订单已关闭，无法取消, 只有待支付的订单…) mostly
 * means the order changed meanwhile (timed out, paid, closed by an admin) and the list shown is old.
 */
async function orderWrite<T>(call: Promise<ApiResult<T>>, context: WriteContext, stale: readonly QueryKey[]) {
  const result = await invalidateAfter(call, context, stale);
  if (!result.ok && !nothingAnswered(result)) await context.client.invalidateQueries({ queryKey: orderKeys.all });
  return result;
}

/**
 * The pending order of this plan (the same one again on a double click), or a new one. A
 * refusal comes from settings older than the server's (the plan's price changed, the plan was
 * withdrawn, VIP or payment switched off): they are asked again, so the checkout shows the plan as it now is.
 */
export async function createOrder(request: CreateOrderRequest, context: WriteContext) {
  const result = await orderWrite(api.post<Order>('/api/v1/order', request), context, [orderKeys.all]);
  if (!result.ok && !nothingAnswered(result)) await context.client.invalidateQueries({ queryKey: settingsKeys.all });
  return result;
}

export const payOrder = (request: PayOrderRequest, context: WriteContext) =>
  orderWrite(api.post<PayOrderReply>('/api/v1/order/pay', request), context, [orderKeys.all]);

/** Asks the provider first: a payment made meanwhile pays the order instead. */
export const cancelOrder = (orderNo: string, context: WriteContext) =>
  orderWrite(api.put<Order>('/api/v1/order/cancel', { order_no: orderNo }), context, memberStale);

export const listOrders = (query: ListOrderRequest) => api.get<ListOrderReply>('/api/v1/order/list', { ...query });

export const notificationsQuery = (orderNo: string) =>
  queryOptions({
    queryKey: orderKeys.notifications(orderNo),
    queryFn: async () =>
      unwrap(
        await api.get<ListPaymentNotificationReply>('/api/v1/order/notification', { order_no: orderNo, size: 100 }),
      ),
    staleTime: 0,
  });

/** Every notification (also those for no known order), newest first; `outcome` '' = all. */
export const notificationLogQuery = (outcome: string, page: number, size: number) =>
  queryOptions({
    queryKey: orderKeys.notificationLog(outcome, page),
    queryFn: async () =>
      unwrap(
        await api.get<ListPaymentNotificationReply>('/api/v1/order/notification', {
          page,
          size,
          outcome: outcome ? [outcome] : undefined,
        }),
      ),
    staleTime: 0,
  });

const adminStale = [orderKeys.all, vipKeys.all, userKeys.current];

/** Closes the pending orders of `ids`; the answer names the orders it left (no longer pending, or paid meanwhile). */
export const closeOrders = (ids: readonly number[], reason: string, context: WriteContext) =>
  orderWrite(api.put<CloseOrderReply>('/api/v1/order/close', { id: ids, reason }), context, adminStale);

/** An order CloseOrder left, and why: 订单 2024… 已支付. */
export const skippedOrder = (order: Order) =>
  `订单 ${order.order_no ?? ''} ${optionLabel(orderStatusOptions, order.status ?? OrderStatus.Pending)}`;

/**
 * Closes one order. One the provider says was paid when CloseOrder asked (left in `skipped`) is
 * answered as a refusal that says so: 订单已关闭 would be untrue.
 */
export async function closeOrder(id: number, reason: string, context: WriteContext): Promise<ApiResult<unknown>> {
  const result = await closeOrders([id], reason, context);
  const left = result.ok ? result.data.skipped?.[0] : undefined;
  if (!left) return result;
  return { ok: false, status: 400, data: { code: 9, message: `${skippedOrder(left)}，未关闭` } };
}

/** Marks refunded and takes back the VIP days the order granted (the money goes back at the provider). */
export const refundOrder = (id: number, reason: string, context: WriteContext) =>
  orderWrite(api.put<Order>('/api/v1/order/refund', { id, reason }), context, adminStale);

/** A transfer arrived (or a late payment is accepted): pays the order and grants its days. */
export const confirmOrder = (id: number, reason: string, context: WriteContext) =>
  orderWrite(api.put<Order>('/api/v1/order/confirm', { id, reason }), context, adminStale);
