// /admin/order: VIP orders; detail with the payment notifications; confirm, refund, close.
import { orderResource } from '../../features/order/order-resource';
import { PaymentNotificationLog } from '../../features/order/PaymentNotificationLog';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function OrderPage() {
  return <ResourceScreen resource={orderResource} headerExtra={<PaymentNotificationLog />} />;
}
