import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../db';
import { databaseNowText, like } from '../../db/dialect';
import { now, type OrdersTable } from '../../db/schema';
import { OrderStatus, TRANSFER_PROVIDER, UNSETTLED_TRANSFER_REASONS } from '../../../shared/vip';
import { applyPaging, countOf, likePattern, parseOrder } from '../../wire/request';

// The `orders` table. Every change of state is one conditional UPDATE (`WHERE status = …`),
// so of two concurrent attempts to pay, close or refund the same order only one wins.

export type OrderRow = Selectable<OrdersTable>;
export type NewOrder = Omit<Insertable<OrdersTable>, 'id' | 'created_at' | 'updated_at'>;

export const ORDER_SORT_COLUMNS = ['id', 'amount', 'status', 'created_at', 'paid_at', 'expires_at'];

/** `at`: when it is placed (its created_at, the database's now), so that a deadline counted from it is exact. */
export async function insertOrder(db: Database, values: NewOrder, at: Date): Promise<OrderRow> {
  const ts = at.toISOString();
  return db
    .insertInto('orders')
    .values({ ...values, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findOrder(db: Database, id: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrderByNo(db: Database, orderNo: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
}

/** The member's pending order, whatever its plan: a member holds at most one (migration 044). */
export async function findPendingOrder(db: Database, buyerId: number): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('buyer_id', '=', buyerId)
    .where('status', '=', OrderStatus.Pending)
    .executeTakeFirst();
}

/** Appends a dated line to the admin's notes of the order. */
function withNote(note: string | undefined) {
  return note ? { remark: sql<string>`CASE WHEN remark = '' THEN ${note} ELSE remark || ${`\n${note}`} END` } : {};
}

/**
 * pending (or, when an admin re-opens it, closed with a late payment or a transfer closed by
 * its timeout) → paid; false when it was not in `from`.
 */
export async function setPaid(
  db: Database,
  id: number,
  from: OrderStatus,
  paid: {
    provider: string;
    trade_no: string;
    paid_amount: number;
    /** The provider's time of the payment; null: the database's now. */
    paid_at: string | null;
    note?: string;
  },
): Promise<boolean> {
  const ts = now();
  let query = db
    .updateTable('orders')
    .set({
      status: OrderStatus.Paid,
      provider: paid.provider,
      trade_no: paid.trade_no,
      paid_amount: paid.paid_amount,
      // By the database's clock, as the order's deadline and the VIP period it starts: a machine whose clock
      // is off would date the payment before the order was placed or after the period it paid for began.
      paid_at: paid.paid_at ?? databaseNowText(db),
      late_paid: 0,
      updated_at: ts,
      ...withNote(paid.note),
    })
    .where('id', '=', id)
    .where('status', '=', from);
  // The SQL of `confirmableAfterClose`: checked again here, so of two confirmations one wins.
  if (from === OrderStatus.Closed)
    query = query.where((eb) =>
      eb.or([
        eb('late_paid', '=', 1),
        eb.and([eb('provider', '=', TRANSFER_PROVIDER), eb('close_reason', 'in', UNSETTLED_TRANSFER_REASONS)]),
      ]),
    );
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setGrantedInterval(
  db: Database,
  id: number,
  interval: { from: string; until: string },
): Promise<void> {
  await db
    .updateTable('orders')
    .set({ vip_start_at: interval.from, vip_end_at: interval.until })
    .where('id', '=', id)
    .execute();
}

/** pending → closed; false when the order was no longer pending. */
export async function setClosed(db: Database, id: number, reason: string, note?: string): Promise<boolean> {
  const ts = now();
  const result = await db
    .updateTable('orders')
    .set({ status: OrderStatus.Closed, close_reason: reason, closed_at: ts, updated_at: ts, ...withNote(note) })
    .where('id', '=', id)
    .where('status', '=', OrderStatus.Pending)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** paid, or closed with a late payment → refunded; false otherwise. */
export async function setRefunded(db: Database, id: number, note: string): Promise<boolean> {
  const ts = now();
  const result = await db
    .updateTable('orders')
    .set({ status: OrderStatus.Refunded, refunded_at: ts, updated_at: ts, ...withNote(note) })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('status', '=', OrderStatus.Paid),
        eb.and([eb('status', '=', OrderStatus.Closed), eb('late_paid', '=', 1)]),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A verified payment for a closed order: kept on the order for the admin to refund or re-open. */
export async function setLatePayment(
  db: Database,
  id: number,
  late: { provider: string; trade_no: string; paid_amount: number },
): Promise<void> {
  await db
    .updateTable('orders')
    .set({ ...late, late_paid: 1, updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', OrderStatus.Closed)
    .execute();
}

export async function setProvider(db: Database, id: number, provider: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ provider, updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', OrderStatus.Pending)
    .execute();
}

/** Moves a pending order's deadline (a transfer's own timeout). */
export async function setDeadline(db: Database, id: number, expiresAt: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ expires_at: expiresAt, updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', OrderStatus.Pending)
    .execute();
}

/**
 * Claims the right to ask the provider about this order now: at most once per `intervalMs` by the
 * database's clock, whichever machines the member's polls reach.
 */
export async function claimCheck(db: Database, id: number, intervalMs: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ checked_at: databaseNowText(db) })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', databaseNowText(db, -intervalMs))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface OrderFilter {
  buyerIds: number[];
  statuses: number[];
  providers: string[];
  wd: string;
  createdFrom: Date | null;
  createdTo: Date | null;
  order: string;
  page: number;
  size: number;
}

export async function listOrders(db: Database, filter: OrderFilter) {
  let query = db.selectFrom('orders');
  if (filter.buyerIds.length) query = query.where('buyer_id', 'in', filter.buyerIds);
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  if (filter.providers.length) query = query.where('provider', 'in', filter.providers);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom.toISOString());
  if (filter.createdTo) query = query.where('created_at', '<', filter.createdTo.toISOString());
  if (filter.wd.trim()) {
    const pattern = likePattern(filter.wd);
    query = query.where((eb) =>
      eb.or([like(db, 'order_no', pattern), like(db, 'buyer_name', pattern), like(db, 'trade_no', pattern)]),
    );
  }
  let rowsQuery = query.selectAll();
  const order = parseOrder(filter.order, ORDER_SORT_COLUMNS, { nullable: ['paid_at'] });
  for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }])
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  const rows = await applyPaging(rowsQuery, filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}
