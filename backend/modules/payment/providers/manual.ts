import { PaymentProviderError, type PaymentProvider, type PaymentStart, type TradeState } from './provider';

// 线下转账: the member reads the operator's instructions (account, the order number as the
// transfer's note) and an admin confirms the money arrived (OrderAPI.ConfirmOrder).

export class ManualProvider implements PaymentProvider {
  readonly name = 'manual' as const;

  constructor(private readonly instructions: string) {
    if (!instructions.trim()) throw new PaymentProviderError('misconfigured', '尚未填写线下转账说明');
  }

  async start(): Promise<PaymentStart> {
    return { kind: 'instructions', text: this.instructions };
  }

  /** Nobody to ask: only an admin's confirmation pays a manual order. */
  async query(): Promise<TradeState> {
    return { paid: false, state: 'WAIT_CONFIRM' };
  }

  async close(): Promise<void> {
    // Nothing was opened anywhere.
  }
}
