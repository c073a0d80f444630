import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// `payment_notification` by order number: the notifications of one order that changed nothing
// are kept up to a number (modules/payment/store.ts), counted on each write; the admin's
// notification list filters by it too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`CREATE INDEX payment_notification_order_no ON payment_notification (order_no, id)`]);
}
