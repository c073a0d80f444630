// What a member can do with a pending order in their list: pay it (back to the checkout) or
// cancel it (a second click confirms, so a slip of the finger cancels nothing).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Order } from '../../../../shared/types/order';
import { OrderStatus } from '../../../../shared/vip';
import { unwrap } from '../../api/client';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { cancelOrder } from './api';
import './order.css';

export function MemberOrderActions({ order }: { order: Order }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
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
        去支付
      </Button>
      <Button
        size="small"
        type="danger"
        theme={confirming ? 'solid' : 'light'}
        loading={cancel.isPending}
        aria-label={confirming ? `确定取消订单 ${order.order_no ?? ''}` : `取消订单 ${order.order_no ?? ''}`}
        onClick={() => {
          if (cancel.isPending) return;
          // The question goes with the answer: a second click of a double click asks again, it cancels nothing twice.
          setConfirming(!confirming);
          if (confirming) cancel.mutate();
        }}
        onBlur={() => !cancel.isPending && setConfirming(false)}
      >
        {confirming ? '确定取消' : '取消订单'}
      </Button>
    </span>
  );
}
