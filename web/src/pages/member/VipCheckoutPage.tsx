import { VipCheckout } from '../../features/order/VipCheckout';

/** `/vip/checkout`: order and pay a VIP plan, or see how an order went. */
export function VipCheckoutPage() {
  return (
    <div className="app-container app-checkout">
      <VipCheckout />
    </div>
  );
}
