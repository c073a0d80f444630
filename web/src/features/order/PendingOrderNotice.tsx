// Under the member's VIP state: an order not yet paid, or a transfer waiting for the admin's
// 确认收款, so that a member who has sent the money does not read only 您还不是 VIP 会员 and buy again.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { myPendingOrdersQuery } from './api';
import './order.css';

const checkoutPath = (orderNo: string) => `/vip/checkout?order_no=${encodeURIComponent(orderNo)}`;

/** Nothing while loading, on failure or with no pending order: the VIP state above stands on its own. */
export function PendingOrderNotice() {
  const pending = useQuery(myPendingOrdersQuery());
  const total = pending.data?.total ?? 0;
  const latest = pending.data?.order?.[0];
  if (!total || !latest) return null;
  if (total > 1)
    return (
      <p className="app-pending-order">
        您有 {total} 笔订单尚未完成。<Link to="/member/order">查看我的订单</Link>
      </p>
    );
  const orderNo = latest.order_no ?? '';
  const plan = latest.plan_title ? `（${latest.plan_title}）` : '';
  return latest.provider === 'manual' ? (
    <p className="app-pending-order">
      您的订单 {orderNo}
      {plan}正在等待管理员确认收款，确认后 VIP 会员即刻生效。<Link to={checkoutPath(orderNo)}>查看订单</Link>
    </p>
  ) : (
    <p className="app-pending-order">
      您的订单 {orderNo}
      {plan}尚未支付。<Link to={checkoutPath(orderNo)}>去支付</Link>
    </p>
  );
}
