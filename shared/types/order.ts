// Wire types of OrderAPI (ours, docs/api.md §10; conventions in ./common.ts). Amounts in fen.

export interface Order {
  id?: number;
  /** 22 digits, unique; the providers' out_trade_no. */
  order_no?: string;
  /** The buyer (kept after the account is deleted). */
  user_id?: number;
  username?: string;
  plan_code?: string;
  plan_title?: string;
  days?: number;
  /** fen */
  amount?: number;
  /** 0 pending, 1 paid, 2 closed, 3 refunded (shared/vip.ts `OrderStatus`). */
  status?: number;
  /** `alipay`, `wechat` or `manual`: the way the member chose or paid. */
  provider?: string;
  trade_no?: string;
  /** fen */
  paid_amount?: number;
  /** `cancel`, `timeout`, `admin` or `replaced`. */
  close_reason?: string;
  /** A verified payment arrived after the order was closed (the admin refunds or re-opens). */
  late_paid?: boolean;
  /** The admins' notes; only in admin answers. */
  remark?: string;
  /** The part of the VIP period this order added. */
  vip_start_at?: string;
  vip_end_at?: string;
  expires_at?: string;
  paid_at?: string;
  closed_at?: string;
  refunded_at?: string;
  created_at?: string;
  updated_at?: string;
  /**
   * GetOrder, to the buyer of a pending order submitted as a transfer (`provider` manual):
   * the instructions PayOrder gave, to read again.
   */
  instructions?: string;
}

/** `price`: the plan's price in yuan as the member saw it; another price is refused. */
export interface CreateOrderRequest {
  plan_code: string;
  price: number;
}

export interface PayOrderRequest {
  order_no: string;
  provider: string;
  /** `pc` (default) or `mobile`. */
  device?: string;
}

/** One of `pay_url` (go there), `code_url` (show as a QR code) or `instructions` (transfer). */
export interface PayOrderReply {
  order?: Order;
  provider?: string;
  pay_url?: string;
  code_url?: string;
  instructions?: string;
}

export interface CancelOrderRequest {
  order_no: string;
}

export interface GetOrderRequest {
  id?: number;
  order_no?: string;
}

export interface ListMyOrderRequest {
  page?: number;
  size?: number;
  status?: number[];
}

export interface ListOrderRequest {
  page?: number;
  size?: number;
  wd?: string;
  status?: number[];
  provider?: string[];
  user_id?: number[];
  /** RFC 3339; orders created at or after. */
  created_from?: string;
  /** RFC 3339; orders created before. */
  created_to?: string;
  order?: string;
}

export interface ListOrderReply {
  total?: number;
  order?: Order[];
}

export interface CloseOrderRequest {
  id: number[];
  reason: string;
}

/** Refund or confirm one order, with the admin's reason. */
export interface OrderDecisionRequest {
  id: number;
  reason: string;
}

/** A notification a provider posted, or a payment confirmed by query or by an admin. */
export interface PaymentNotification {
  id?: number;
  provider?: string;
  order_no?: string;
  order_id?: number;
  trade_no?: string;
  /** fen */
  amount?: number;
  /** `paid`, `repeated`, `late`, `ignored` or `refused`. */
  outcome?: string;
  reason?: string;
  /** The notification as received (WeChat: with its decrypted resource). */
  raw?: string;
  ip?: string;
  created_at?: string;
}

export interface ListPaymentNotificationRequest {
  page?: number;
  size?: number;
  order_no?: string;
  outcome?: string[];
  provider?: string[];
}

export interface ListPaymentNotificationReply {
  total?: number;
  notification?: PaymentNotification[];
}
