import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '../../../shared/format';
import { errorMessage } from '../api/client';
import { myOrdersQuery, ORDER_STATUS_LABEL } from '../api/order';
import { Pager } from '../ui/Pager';
import { Skeleton } from '../ui/semi';
import { EmptyState, ErrorState } from '../ui/states';
import './member.css';

const PAGE_SIZE = 10;

const yuan = (fen: number | undefined) => `¥${((fen ?? 0) / 100).toFixed(2)}`;

/** `/member/order`: the member's orders (VIP purchases). */
export function MemberOrderPage() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, refetch } = useQuery({ ...myOrdersQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });

  let body;
  if (isPending) body = <Skeleton.Paragraph rows={5} />;
  else if (isError) body = <ErrorState message={errorMessage(error, '订单加载失败')} onRetry={() => void refetch()} />;
  else if ((data.order ?? []).length === 0) {
    body = (
      <EmptyState title="暂无订单" description="开通 VIP 会员后，订单会显示在这里。">
        <Link to="/vip">了解 VIP 会员</Link>
      </EmptyState>
    );
  } else {
    body = (
      <>
        <table className="app-member__list">
          <thead>
            <tr>
              <th scope="col">订单号</th>
              <th scope="col">商品</th>
              <th scope="col">金额</th>
              <th scope="col">状态</th>
              <th scope="col">下单时间</th>
            </tr>
          </thead>
          <tbody>
            {(data.order ?? []).map((o) => (
              <tr key={o.id}>
                <td>{o.order_no ?? o.id}</td>
                <td>{o.title ?? '-'}</td>
                <td>{yuan(o.amount)}</td>
                <td>{ORDER_STATUS_LABEL[o.status ?? 0] ?? '-'}</td>
                <td>{o.created_at ? formatDate(o.created_at, 'YYYY-MM-DD HH:mm') : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
      </>
    );
  }
  return (
    <section className="app-panel" aria-labelledby="orders-title">
      <h1 id="orders-title" className="app-panel__title">
        我的订单
      </h1>
      {body}
    </section>
  );
}
