import { message } from '../wire';

// OrderAPI's messages (ours, docs/api.md §10). Amounts are integers in fen.

export const Order = message('Order', {
  id: 'int64',
  order_no: 'string',
  user_id: 'int64',
  username: 'string',
  plan_code: 'string',
  plan_title: 'string',
  days: 'int32',
  amount: 'int64',
  status: 'int32',
  provider: 'string',
  trade_no: 'string',
  paid_amount: 'int64',
  close_reason: 'string',
  late_paid: 'bool',
  remark: 'string',
  vip_start_at: 'time',
  vip_end_at: 'time',
  expires_at: 'time',
  paid_at: 'time',
  closed_at: 'time',
  refunded_at: 'time',
  created_at: 'time',
  updated_at: 'time',
  instructions: 'string',
});

export const CreateOrderRequest = message('CreateOrderRequest', { plan_code: 'string', price: 'float' });
export const PayOrderRequest = message('PayOrderRequest', { order_no: 'string', provider: 'string', device: 'string' });
export const PayOrderReply = message('PayOrderReply', {
  order: Order,
  provider: 'string',
  pay_url: 'string',
  code_url: 'string',
  instructions: 'string',
});
export const CancelOrderRequest = message('CancelOrderRequest', { order_no: 'string' });
export const GetOrderRequest = message('GetOrderRequest', { id: 'int64', order_no: 'string' });
export const ListMyOrderRequest = message('ListMyOrderRequest', { page: 'int64', size: 'int64', status: 'int32[]' });
export const ListOrderRequest = message('ListOrderRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  status: 'int32[]',
  provider: 'string[]',
  user_id: 'int64[]',
  created_from: 'time',
  created_to: 'time',
  order: 'string',
});
export const ListOrderReply = message('ListOrderReply', { total: 'int64', order: [Order] });
export const CloseOrderRequest = message('CloseOrderRequest', { id: 'int64[]', reason: 'string' });
/** What a batch close did: the orders closed, and those it left (no longer pending, or paid at the provider meanwhile). */
export const CloseOrderReply = message('CloseOrderReply', { closed: 'int64[]', skipped: [Order] });
export const OrderDecisionRequest = message('OrderDecisionRequest', { id: 'int64', reason: 'string' });
