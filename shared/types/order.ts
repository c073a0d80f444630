// Wire types of OrderAPI (ours, docs/api.md §10; conventions in ./common.ts). Amounts in fen.

/**
 * `order_no`: 22 digits, unique; the providers' out_trade_no.
 * `user_id`: The buyer (kept after the account is deleted).
 * `amount`: fen
 * `status`: 0 pending, 1 paid, 2 closed, 3 refunded (shared/vip.ts `OrderStatus`).
 * `provider`: `alipay`, `wechat` or `manual`: the way the member chose or paid.
 * `paid_amount`: fen
 * `close_reason`: `cancel`, `timeout`, `admin` or `replaced`.
 * `late_paid`: A verified payment arrived after the order was closed (the admin refunds or re-opens).
 * `remark`: The admins' notes; only in admin answers.
 * `vip_start_at`: The part of the VIP period this order added.
 * `instructions`: * GetOrder, to the buyer of a pending order submitted as a transfer (`provider` manual): the
 * instructions PayOrder gave, to read again.
 */
import type { Wire } from '../wire';
import type * as orderMessages from '../messages/order';
import type * as paymentMessages from '../messages/payment';

export type Order = Wire<typeof orderMessages.Order>;

/** `price`: the plan's price in yuan as the member saw it; another price is refused. */
export type CreateOrderRequest = Wire<typeof orderMessages.CreateOrderRequest>;

/**
 * `device`: `pc` (default) or `mobile`.
 */
export type PayOrderRequest = Wire<typeof orderMessages.PayOrderRequest>;

/** One of `pay_url` (go there), `code_url` (show as a QR code) or `instructions` (transfer). */
export type PayOrderReply = Wire<typeof orderMessages.PayOrderReply>;

export type CancelOrderRequest = Wire<typeof orderMessages.CancelOrderRequest>;

export type GetOrderRequest = Wire<typeof orderMessages.GetOrderRequest>;

export type ListMyOrderRequest = Wire<typeof orderMessages.ListMyOrderRequest>;

/**
 * `created_from`: RFC 3339; orders created at or after.
 * `created_to`: RFC 3339; orders created before.
 */
export type ListOrderRequest = Wire<typeof orderMessages.ListOrderRequest>;

export type ListOrderReply = Wire<typeof orderMessages.ListOrderReply>;

export type CloseOrderRequest = Wire<typeof orderMessages.CloseOrderRequest>;
export type CloseOrderReply = Wire<typeof orderMessages.CloseOrderReply>;

/** Refund or confirm one order, with the admin's reason. */
export type OrderDecisionRequest = Wire<typeof orderMessages.OrderDecisionRequest>;

/**
 * A notification a provider posted, or a payment confirmed by query or by an admin.
 * `amount`: fen
 * `outcome`: `paid`, `repeated`, `late`, `ignored` or `refused`.
 * `raw`: The notification as received (WeChat: with its decrypted resource).
 */
export type PaymentNotification = Wire<typeof paymentMessages.PaymentNotification>;

export type ListPaymentNotificationRequest = Wire<typeof paymentMessages.ListPaymentNotificationRequest>;

export type ListPaymentNotificationReply = Wire<typeof paymentMessages.ListPaymentNotificationReply>;
