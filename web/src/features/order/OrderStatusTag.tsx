import { optionLabel } from '../../../../shared/constants';
import type { Order } from '../../../../shared/types/order';
import {
  OrderStatus,
  closeReasonOptions,
  formatFen,
  orderStatusOptions,
  paymentProviderOptions,
} from '../../../../shared/vip';
import { Tag } from '../../ui/semi-extra';

const COLORS: Record<number, 'orange' | 'green' | 'grey' | 'purple'> = {
  [OrderStatus.Pending]: 'orange',
  [OrderStatus.Paid]: 'green',
  [OrderStatus.Closed]: 'grey',
  [OrderStatus.Refunded]: 'purple',
};

/** A pending order submitted as a bank transfer: the member may have paid already, it waits for the admin. */
export const awaitsTransferConfirmation = (order: Order) =>
  (order.status ?? OrderStatus.Pending) === OrderStatus.Pending && order.provider === 'manual';

/**
 * 待支付 / 已支付 / 已关闭 / 已退款, a closed order with why (会员取消, 超时未支付, 管理员关闭,
 * 套餐已变更 from `close_reason`), and 关闭后到账 for a payment the admin must look at. A pending
 * transfer reads 待确认收款, as the checkout says (等待管理员确认收款), not 待支付 to one who sent it.
 */
export function OrderStatusTag({ order }: { order: Order }) {
  const status = order.status ?? OrderStatus.Pending;
  const reason =
    status === OrderStatus.Closed && order.close_reason
      ? `（${optionLabel(closeReasonOptions, order.close_reason, order.close_reason)}）`
      : '';
  return (
    <span className="app-order-actions">
      <Tag color={COLORS[status] ?? 'grey'}>
        {awaitsTransferConfirmation(order) ? '待确认收款' : optionLabel(orderStatusOptions, status, '未知')}
        {reason}
      </Tag>
      {order.late_paid && <Tag color="red">关闭后到账</Tag>}
    </span>
  );
}

export const orderAmount = (fen: number | undefined) => `¥${formatFen(fen ?? 0)}`;

export const providerLabel = (provider: string | undefined) =>
  provider
    ? optionLabel(paymentProviderOptions, provider as (typeof paymentProviderOptions)[number]['value'], provider)
    : '-';
