import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Database } from '../../db';
import { now, type DB, type PaymentNotificationTable } from '../../db/schema';
import { applyPaging, countOf } from '../../wire/request';
import { clip } from './providers/provider';

// The `payment_notification` table: every notification a provider posted, what became of it
// (paid, repeated, late, ignored, refused) and why, with the raw text for the admin.

export type NotificationRecord = Omit<Insertable<PaymentNotificationTable>, 'id' | 'created_at' | 'verified'>;

/**
 * Notifications refused before they reached the order module (`verified` 0: a bad or missing
 * signature, a stale timestamp, another app or merchant, an unreadable body) kept at most: the
 * newest. Anyone can post them, as fast as they like; what an admin needs of them is that
 * they arrive, from where and why they fail (a wrong platform key refuses every genuine one),
 * which the newest show. The verified ones (paid, refused for the order's sake: unknown order,
 * another amount) are all kept: only the provider can send them.
 */
export const UNVERIFIED_NOTIFICATIONS_KEPT = 100;
/** Their raw text kept, in characters: a whole notification of either provider (1–3 KB), not a flood's megabytes. */
export const UNVERIFIED_RAW_KEPT = 4096;

/**
 * Verified notifications of one order that changed nothing (`repeated`, `ignored`, `late`,
 * `refused` for the order's sake) kept at most, per outcome: the newest. A provider sends a
 * notification again until it is answered, a dozen times at most; more are replays of a signed
 * text someone kept (the signed parameters Alipay returns to the buyer's browser verify as a
 * notification too), which must not fill the table. A `paid` one is always kept.
 */
export const NO_EFFECT_KEPT_PER_ORDER = 20;

/** Keeps a verified notification (in the caller's transaction), pruned as NO_EFFECT_KEPT_PER_ORDER says. */
export async function recordNotification(db: Database, record: NotificationRecord): Promise<void> {
  await db
    .insertInto('payment_notification')
    .values({ ...record, created_at: now() })
    .execute();
  if (record.outcome === 'paid') return;
  const sameKind = (eb: ExpressionBuilder<DB, 'payment_notification'>) =>
    eb.and([
      eb('order_no', '=', record.order_no),
      eb('provider', '=', record.provider),
      eb('outcome', '=', record.outcome),
      eb('verified', '=', 1),
    ]);
  const oldestKept = await db
    .selectFrom('payment_notification')
    .select('id')
    .where(sameKind)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(NO_EFFECT_KEPT_PER_ORDER - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db.deleteFrom('payment_notification').where(sameKind).where('id', '<', oldestKept.id).execute();
}

/** Keeps a notification refused before verification, and drops those beyond the newest UNVERIFIED_NOTIFICATIONS_KEPT. */
export async function recordUnverifiedNotification(db: Database, record: NotificationRecord): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('payment_notification')
      .values({ ...record, raw: clip(record.raw, UNVERIFIED_RAW_KEPT), verified: 0, created_at: now() })
      .execute();
    const oldestKept = await trx
      .selectFrom('payment_notification')
      .select('id')
      .where('verified', '=', 0)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(UNVERIFIED_NOTIFICATIONS_KEPT - 1)
      .executeTakeFirst();
    if (oldestKept)
      await trx.deleteFrom('payment_notification').where('verified', '=', 0).where('id', '<', oldestKept.id).execute();
  });
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
