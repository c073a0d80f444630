// What a member can do with a pending order in their list: pay it (back to the checkout) or
// cancel it, asked first with the checkout's question, so that nobody cancels a transfer already
// sent without being told (a cancelled order is never confirmed, decision 055).
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { Order } from '../../../../shared/types/order';
import { OrderStatus } from '../../../../shared/vip';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { cancelOrder } from './api';
import { awaitsTransferConfirmation } from './OrderStatusTag';
import './order.css';

/** Asked before an order is cancelled, in the checkout and in 我的订单 alike. */
export const CANCEL_ORDER_QUESTION = '取消后订单将关闭，无法再支付（已转账请勿取消）。确定取消订单？';

export function MemberOrderActions({ order }: { order: Order }) {
  const navigate = useNavigate();
  const cancel = useMutation({
    mutationFn: async (_: void, context) => unwrap(await cancelOrder(order.order_no ?? '', context)),
    onSuccess: (closed) =>
      toast.success((closed.status ?? 0) === OrderStatus.Paid ? '订单已支付，无需取消' : '订单已取消'),
    onError: (error) => toastFailure('取消订单失败', error),
  });
  if ((order.status ?? OrderStatus.Pending) !== OrderStatus.Pending) return <span>-</span>;
  return (
    <span className="app-order-actions">
      <Button
        size="small"
        theme="solid"
        type="primary"
        onClick={() => navigate(`/vip/checkout?order_no=${encodeURIComponent(order.order_no ?? '')}`)}
      >
        {/* A transfer is not paid here again: its checkout shows the account and the order number to write. */}
        {awaitsTransferConfirmation(order) ? '查看订单' : '去支付'}
      </Button>
      <InlineConfirm
        question={CANCEL_ORDER_QUESTION}
        confirmLabel="确定取消"
        busy={cancel.isPending}
        // The answer swaps back to 取消订单 at once: a second click of a double click asks again, it cancels nothing twice.
        onConfirm={() => !cancel.isPending && cancel.mutate()}
        trigger={(ask) => (
          <Button
            size="small"
            type="danger"
            theme="light"
            loading={cancel.isPending}
            aria-label={`取消订单 ${order.order_no ?? ''}`}
            onClick={ask}
          >
            取消订单
          </Button>
        )}
      />
    </span>
  );
}
