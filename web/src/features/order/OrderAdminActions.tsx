// An order's row actions on /admin/order: its detail with the payment notifications, and the
// admin's decisions, each with a reason kept on the order: confirm a payment (a transfer, even
// one closed by its timeout, or a payment that arrived after the order closed), refund, close.
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { optionLabel } from '../../../../shared/constants';
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Order, PaymentNotification } from '../../../../shared/types/order';
import {
  OrderStatus,
  closeReasonOptions,
  confirmableAfterClose,
  notificationOutcomeOptions,
} from '../../../../shared/vip';
import { ActionDialog } from '../../kit/admin-resource/ActionDialog';
import { ConfirmDialog } from '../../kit/admin-resource/ConfirmDialog';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Button } from '../../ui/semi';
import { Tag } from '../../ui/semi-extra';
import { SideSheet } from '../../ui/semi-admin';
import { EmptyState } from '../../ui/states';
import { closeOrder, confirmOrder, notificationsQuery, refundOrder } from './api';
import { awaitsTransferConfirmation, OrderStatusTag, orderAmount, providerLabel } from './OrderStatusTag';
import './order.css';
import { sheetWidth } from '../../ui/fit';
import { firstFocusable, useFocusFallback } from '../../ui/focus-fallback';

const CONFIRM = grpcPermissionPath('OrderAPI', 'ConfirmOrder');
const REFUND = grpcPermissionPath('OrderAPI', 'RefundOrder');
const CLOSE = grpcPermissionPath('OrderAPI', 'CloseOrder');
const NOTIFICATIONS = grpcPermissionPath('OrderAPI', 'ListPaymentNotification');

type ReasonValues = { reason: string };
const when = (value: string | undefined) => (value ? formatDate(value, SHORT_DATE_FORMAT) : '-');

const OUTCOME_COLORS: Record<string, 'green' | 'grey' | 'red' | 'orange' | 'blue'> = {
  paid: 'green',
  repeated: 'grey',
  late: 'orange',
  ignored: 'blue',
  refused: 'red',
};

export function NotificationList({ notifications }: { notifications: readonly PaymentNotification[] }) {
  return (
    <ol className="app-order-notifications" aria-label="支付通知">
      {notifications.map((n) => (
        <li key={n.id}>
          <div className="app-order-actions">
            <Tag color={OUTCOME_COLORS[n.outcome ?? ''] ?? 'grey'}>
              {optionLabel(notificationOutcomeOptions, n.outcome ?? '', n.outcome ?? '')}
            </Tag>
            <span>{providerLabel(n.provider)}</span>
            <span className="app-resource-muted">{when(n.created_at)}</span>
            {n.amount ? <span>{orderAmount(n.amount)}</span> : null}
            {n.order_no && <span className="app-resource-muted">订单 {n.order_no}</span>}
          </div>
          {n.reason && <p className="app-order-notifications__reason">{n.reason}</p>}
          <details>
            <summary>原始通知</summary>
            <pre className="app-order-notifications__raw">{n.raw}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

function OrderDetailSheet({ order, onClose }: { order: Order; onClose: () => void }) {
  const may = useMayCall();
  const notifications = useQuery({ ...notificationsQuery(order.order_no ?? ''), enabled: may(NOTIFICATIONS) });
  const rows: [string, ReactNode][] = [
    ['订单号', order.order_no],
    ['用户', `${order.username ?? ''}（ID ${order.user_id ?? ''}）`],
    ['套餐', `${order.plan_title ?? ''}（${order.days ?? 0} 天）`],
    ['金额', orderAmount(order.amount)],
    ['状态', <OrderStatusTag key="status" order={order} />],
    ['支付方式', providerLabel(order.provider)],
    ['交易号', order.trade_no || '-'],
    ['实付金额', order.paid_amount ? orderAmount(order.paid_amount) : '-'],
    ['下单时间', when(order.created_at)],
    ['支付期限', when(order.expires_at)],
    ['支付时间', when(order.paid_at)],
    [
      '关闭时间',
      order.closed_at
        ? `${when(order.closed_at)}（${optionLabel(closeReasonOptions, order.close_reason ?? '', order.close_reason ?? '')}）`
        : '-',
    ],
    ['退款时间', when(order.refunded_at)],
    ['开通的会员期', order.vip_start_at ? `${when(order.vip_start_at)} 至 ${when(order.vip_end_at)}` : '-'],
  ];
  return (
    <SideSheet visible title={`订单详情 · ${order.order_no ?? ''}`} onCancel={onClose} width={sheetWidth(620)}>
      <dl className="app-checkout__summary">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {order.remark && (
        <>
          <h3>管理员备注</h3>
          <p className="app-checkout__instructions">{order.remark}</p>
        </>
      )}
      {may(NOTIFICATIONS) && (
        <>
          <h3>支付通知</h3>
          <QueryStates
            query={notifications}
            loadingRows={3}
            failure="支付通知加载失败"
            isEmpty={(data) => !data.notification?.length}
            empty={<EmptyState title="暂无支付通知" />}
          >
            {(data) => <NotificationList notifications={data.notification ?? []} />}
          </QueryStates>
        </>
      )}
    </SideSheet>
  );
}

export function OrderAdminActions({ order }: { order: Order }) {
  const may = useMayCall();
  const [open, setOpen] = useState<'detail' | 'unsubmitted' | 'confirm' | 'refund' | 'close' | null>(null);
  const status = order.status ?? OrderStatus.Pending;
  // Pending, and neither a transfer submitted nor a payment the provider told: 确认收款 asks first.
  const unsubmitted = status === OrderStatus.Pending && !awaitsTransferConfirmation(order);
  const latePaid = status === OrderStatus.Closed && order.late_paid === true;
  const reopenable = confirmableAfterClose(order);
  const no = order.order_no ?? '';
  const close = () => setOpen(null);
  // The row's 确认收款, to which the keyboard goes back after the question and the reason dialog.
  const confirmButton = useRef<HTMLElement | null>(null);
  // The row's actions: a decision done takes its own button away (退款 of an order now refunded),
  // and the keyboard goes to the first one left (详情).
  const actions = useRef<Element | null>(null);
  useFocusFallback(open !== null, () => firstFocusable(actions.current));
  const reasonDialog = (kind: 'confirm' | 'refund' | 'close') => {
    const spec = {
      confirm: {
        title: '确认收款',
        okText: '确认收款',
        danger: false,
        label: '收款说明',
        success: '已确认收款，会员已开通',
        failure: '确认收款失败',
        message: latePaid
          ? '这笔付款在订单关闭后到账。确认后订单改为已支付，并为会员开通套餐天数。'
          : reopenable
            ? '这笔线下转账订单已超时关闭。确认已收到转账后，订单改为已支付，并为会员开通套餐天数。'
            : '确认已收到这笔订单的款项后，订单改为已支付，并为会员开通套餐天数。',
        run: confirmOrder,
      },
      refund: {
        title: '订单退款',
        okText: '标记为已退款',
        danger: true,
        label: '退款原因',
        success: '订单已退款',
        failure: '退款失败',
        message:
          '订单将标记为已退款，并收回它开通的、尚未使用的会员天数。款项请在支付宝或微信支付商户平台（线下转账则线下）退回。',
        run: refundOrder,
      },
      close: {
        title: '关闭订单',
        okText: '关闭订单',
        danger: true,
        label: '关闭原因',
        success: '订单已关闭',
        failure: '关闭订单失败',
        message: '关闭前会向支付渠道查询一次：若已付款，订单将改为已支付。',
        run: closeOrder,
      },
    }[kind];
    return (
      <ActionDialog<ReasonValues>
        idPrefix={`order-${kind}-${order.id ?? 0}`}
        title={`${spec.title} · ${no}`}
        message={
          <>
            {/* What the decision is about, beside the dialog that covers the row (on a phone, all of it). */}
            <dl className="app-order-facts">
              <dt>用户</dt>
              <dd>{order.username}</dd>
              <dt>套餐</dt>
              <dd>
                {order.plan_title}（{order.days ?? 0} 天）
              </dd>
              <dt>金额</dt>
              <dd>{orderAmount(order.amount)}</dd>
              {order.paid_amount ? (
                <>
                  <dt>实付金额</dt>
                  <dd>{orderAmount(order.paid_amount)}</dd>
                </>
              ) : null}
              <dt>支付方式</dt>
              <dd>{providerLabel(order.provider)}</dd>
            </dl>
            <p>{spec.message}</p>
          </>
        }
        okText={spec.okText}
        danger={spec.danger}
        fields={[
          {
            name: 'reason',
            label: spec.label,
            kind: 'textarea',
            required: true,
            maxLength: 255,
            hint: '记录在订单的管理员备注中',
          },
        ]}
        initial={{ reason: '' }}
        run={(values, context) => spec.run(order.id ?? 0, values.reason.trim(), context)}
        success={spec.success}
        failure={spec.failure}
        onClose={close}
      />
    );
  };
  return (
    <>
      <Button
        size="small"
        theme="borderless"
        aria-label={`订单 ${no} 详情`}
        onClick={(event) => {
          actions.current = event.currentTarget.parentElement;
          setOpen('detail');
        }}
      >
        详情
      </Button>
      {may(CONFIRM) && (status === OrderStatus.Pending || reopenable) && (
        <Button
          size="small"
          theme="borderless"
          aria-label={`确认收款 ${no}`}
          onClick={(event) => {
            confirmButton.current = event.currentTarget;
            actions.current = event.currentTarget.parentElement;
            setOpen(unsubmitted ? 'unsubmitted' : 'confirm');
          }}
        >
          确认收款
        </Button>
      )}
      {may(REFUND) && (status === OrderStatus.Paid || latePaid) && (
        <Button
          size="small"
          theme="borderless"
          type="danger"
          aria-label={`退款 ${no}`}
          onClick={(event) => {
            actions.current = event.currentTarget.parentElement;
            setOpen('refund');
          }}
        >
          退款
        </Button>
      )}
      {may(CLOSE) && status === OrderStatus.Pending && (
        <Button
          size="small"
          theme="borderless"
          type="danger"
          aria-label={`关闭订单 ${no}`}
          onClick={(event) => {
            actions.current = event.currentTarget.parentElement;
            setOpen('close');
          }}
        >
          关闭
        </Button>
      )}
      {open === 'detail' && <OrderDetailSheet order={order} onClose={close} />}
      {open === 'unsubmitted' && (
        <ConfirmDialog
          title={`确认收款 · ${no}`}
          message={
            order.provider
              ? `会员没有为这笔订单提交线下转账：选择了${providerLabel(order.provider)}，但支付渠道未通知本站已付款，订单仍为待支付。`
              : '会员没有为这笔订单提交线下转账，也没有选择支付方式，订单仍为待支付。'
          }
          note="只有在商户平台或银行流水中核实已收到这笔款项（如支付通知丢失）时才确认收款：确认后订单改为已支付，并为会员开通套餐天数。"
          okText="已核实，继续"
          busy={false}
          onConfirm={() => {
            // The reason dialog gives the keyboard back to what had it when it opened: the row's
            // button, not 已核实，继续 of this question, gone by then (the keyboard was left on the page).
            confirmButton.current?.focus();
            setOpen('confirm');
          }}
          onCancel={close}
        />
      )}
      {(open === 'confirm' || open === 'refund' || open === 'close') && reasonDialog(open)}
    </>
  );
}
