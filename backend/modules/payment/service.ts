// What other modules may ask of the payment module: the providers the config offers and
// builds, the notify routes (with the order module's settle), and the notification log.
export {
  PAY_KEY_RULES,
  PROVIDER_LABELS,
  assertNotifyAddress,
  offeredProviders,
  paymentProvider,
  returnUrlOf,
} from './setup';
export { registerNotifyRoutes, type NotifyingProviderName, type Settle, type SettleResult } from './notify';
export { listNotifications, recordNotification } from './store';
export {
  DEVICES,
  PaymentProviderError,
  isDevice,
  type ConfirmedPayment,
  type Device,
  type PaymentStart,
  type PaymentSubject,
  type TradeState,
  type VerifiedNotification,
} from './providers/provider';
