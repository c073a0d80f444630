// The admin's orders (/admin/order): filters by state, way of paying, buyer or number, and
// days; each row opens its detail with the payment notifications and offers the admin's
// decisions (OrderAdminActions). Orders are never created or deleted here.
import type { Order } from '../../../../shared/types/order';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { OrderStatus, orderStatusOptions, paymentProviderOptions } from '../../../../shared/vip';
import { dateColumn, PhoneCopy, StackCell } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { closeOrders, listOrders, orderKeys, skippedOrder } from './api';
import { OrderAdminActions } from './OrderAdminActions';
import { OrderStatusTag, orderAmount, providerLabel } from './OrderStatusTag';

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export const orderResource: ResourceDef<Order, Record<string, never>> = {
  key: 'order',
  title: '订单管理',
  noun: '订单',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.order_no ?? '',
  columns: [
    // Eight values and the actions in 957 px (at 1280 px wide): the buyer goes under the number,
    // the price under the plan, the way of paying under the state, and both times stay whole.
    // On a phone the table scrolls sideways: the state shows under the buyer too, for the orders
    // that wait on the admin to be seen without scrolling (a copy screen readers skip).
    {
      key: 'order_no',
      title: '订单号 / 用户',
      width: 200,
      render: (row) => (
        <>
          <StackCell main={row.order_no} sub={row.username || `#${row.user_id ?? ''}`} />
          <PhoneCopy>
            <OrderStatusTag order={row} />
          </PhoneCopy>
        </>
      ),
    },
    {
      key: 'plan_title',
      title: '套餐 / 金额',
      render: (row) => (
        <StackCell
          main={
            <>
              {row.plan_title}
              {/* Broken as a whole: at 1280 px （30 / 天） stood a line each. */}
              <span className="app-resource-nowrap">（{row.days ?? 0} 天）</span>
            </>
          }
          sub={orderAmount(row.amount)}
        />
      ),
    },
    {
      key: 'status',
      title: '状态 / 支付方式',
      width: 120,
      render: (row) => (
        <StackCell main={<OrderStatusTag order={row} />} sub={row.provider ? providerLabel(row.provider) : undefined} />
      ),
    },
    dateColumn('created_at', '下单时间'),
    dateColumn('paid_at', '支付时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '订单号、用户名或交易号' },
    { kind: 'select', name: 'status', label: '状态', options: orderStatusOptions },
    { kind: 'select', name: 'provider', label: '支付方式', options: paymentProviderOptions },
    { kind: 'date-range', name: 'created', label: '下单日期', from: 'created_from', to: 'created_to' },
  ],
  listKey: orderKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listOrders({
        page,
        size,
        wd: keyword(filters.wd),
        status: asList(filters.status as number | undefined),
        provider: asList(text(filters.provider)),
        created_from: text(filters.created_from),
        created_to: text(filters.created_to),
      }),
      (r) => r.order,
    ),
  rowActions: (row) => <OrderAdminActions order={row} />,
  // Pending orders only (CloseOrder refuses the rest); the server asks each one's provider first.
  batchActions: [
    {
      key: 'close',
      label: '批量关闭',
      applies: (row) => (row.status ?? OrderStatus.Pending) === OrderStatus.Pending,
      confirm: (n) => `关闭选中的 ${n} 笔待支付订单。关闭前会向支付渠道逐笔查询一次：已付款的订单将改为已支付。`,
      input: {
        label: '关闭原因',
        maxLength: 255,
        requiredMessage: '请输入关闭原因',
        placeholder: '记录在订单的管理员备注中',
      },
      danger: true,
      // Orders paid or closed since the list was read are left, and named in the success.
      run: async (ids, context, reason) => {
        const result = await closeOrders(ids, typeof reason === 'string' ? reason : '', context);
        if (!result.ok) return result;
        const skipped = (result.data.skipped ?? []).map(skippedOrder);
        return { ...result, data: { done: result.data.closed?.length ?? 0, skipped } };
      },
      success: '订单已关闭',
      requires: grpcPermissionPath('OrderAPI', 'CloseOrder'),
    },
  ],
};
