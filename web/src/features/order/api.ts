// Orders are SPEC's addition to MOREDOC (OrderAPI); the member list is `GET /api/v1/order/list`
// for the caller's own orders. Until the order service exists, a 404 reads as "no orders".
import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export interface Order {
  id?: number;
  order_no?: string;
  title?: string;
  /** In fen (分). */
  amount?: number;
  status?: number;
  pay_type?: string;
  created_at?: string;
  paid_at?: string;
}

export interface OrderListReply {
  order?: Order[];
  total?: number;
}

export const ORDER_STATUS_LABEL: Readonly<Record<number, string>> = { 0: '待支付', 1: '已支付', 2: '已取消', 3: '已退款' };

export const myOrdersQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['order', 'mine', page, size] as const,
    queryFn: async (): Promise<OrderListReply> => {
      const result = await api.get<OrderListReply>('/api/v1/order/list', { page, size });
      if (!result.ok && result.status === 404) return { order: [], total: 0 };
      return unwrap(result);
    },
  });
