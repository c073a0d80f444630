import { Link } from 'react-router-dom';
import { formatDate } from '../../../../shared/format';
import { myOrdersQuery, ORDER_STATUS_LABEL } from '../../features/order/api';
import { MemberListPanel } from '../../kit/member-list/MemberListPanel';
import { EmptyState } from '../../ui/states';
import './member.css';

const yuan = (fen: number | undefined) => `¥${((fen ?? 0) / 100).toFixed(2)}`;

/** `/member/order`: the member's orders (VIP purchases). */
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
        { title: '商品', cell: (o) => o.title ?? '-' },
        { title: '金额', cell: (o) => yuan(o.amount) },
        { title: '状态', cell: (o) => ORDER_STATUS_LABEL[o.status ?? 0] ?? '-' },
        { title: '下单时间', cell: (o) => (o.created_at ? formatDate(o.created_at, 'YYYY-MM-DD HH:mm') : '-') },
      ]}
    />
  );
}
