import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { now, type PaymentNotificationTable } from '../../db/schema';
import { applyPaging, countOf } from '../../wire/request';

// The `payment_notification` table: every notification a provider posted, what became of it
// (paid, repeated, late, ignored, refused) and why, with the raw text for the admin.

export type NotificationRecord = Omit<Insertable<PaymentNotificationTable>, 'id' | 'created_at'>;

export async function recordNotification(db: Database, record: NotificationRecord): Promise<void> {
  await db
    .insertInto('payment_notification')
    .values({ ...record, created_at: now() })
    .execute();
}

export async function listNotifications(
  db: Database,
  filter: { orderNo: string; outcomes: string[]; providers: string[]; page: number; size: number },
) {
  let query = db.selectFrom('payment_notification');
  if (filter.orderNo) query = query.where('order_no', '=', filter.orderNo);
  if (filter.outcomes.length)
    query = query.where('outcome', 'in', filter.outcomes as PaymentNotificationTable['outcome'][]);
  if (filter.providers.length) query = query.where('provider', 'in', filter.providers);
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}
