import { Link } from 'react-router-dom';
import { myOrdersQuery } from '../../features/order/api';
import { MemberOrderActions } from '../../features/order/MemberOrderActions';
import { OrderStatusTag, orderAmount, providerLabel } from '../../features/order/OrderStatusTag';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { EmptyState } from '../../ui/states';
import './member.css';

/** `/member/order`: the member's VIP orders, with pay again and cancel for pending ones. */
export function MemberOrderPage() {
  return (
    <MemberListPanel
      title="我的订单"
      titleId="orders-title"
      query={myOrdersQuery}
      rowsOf={(data) => data.order}
      failure="订单加载失败"
      empty={
        <EmptyState title="暂无订单" description="开通 VIP 会员后，订单会显示在这里。">
          <Link to="/vip">了解 VIP 会员</Link>
        </EmptyState>
      }
      columns={[
        { title: '订单号', cell: (o) => o.order_no ?? o.id },
        { title: '套餐', cell: (o) => `${o.plan_title ?? '-'}（${o.days ?? 0} 天）` },
        { title: '金额', cell: (o) => orderAmount(o.amount) },
        { title: '支付方式', cell: (o) => providerLabel(o.provider) },
        { title: '状态', cell: (o) => <OrderStatusTag order={o} /> },
        { title: '下单时间', cell: (o) => recordTime(o.created_at) },
        { title: '支付时间', cell: (o) => recordTime(o.paid_at) },
        { title: '操作', cell: (o) => <MemberOrderActions order={o} /> },
      ]}
    />
  );
}
