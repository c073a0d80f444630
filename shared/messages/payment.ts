import { message } from '../wire';

// The payment notifications as OrderAPI shows them to the admin (docs/api.md §10).

export const PaymentNotification = message('PaymentNotification', {
  id: 'int64',
  provider: 'string',
  order_no: 'string',
  order_id: 'int64',
  trade_no: 'string',
  amount: 'int64',
  outcome: 'string',
  reason: 'string',
  raw: 'string',
  ip: 'string',
  created_at: 'time',
});

export const ListPaymentNotificationRequest = message('ListPaymentNotificationRequest', {
  page: 'int64',
  size: 'int64',
  order_no: 'string',
  outcome: 'string[]',
  provider: 'string[]',
});
export const ListPaymentNotificationReply = message('ListPaymentNotificationReply', {
  total: 'int64',
  notification: [PaymentNotification],
});
