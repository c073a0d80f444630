import { sql, type Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A member holds one pending order at a time, not one per plan: with a pending order for each plan
// they could pay two (CreateOrder now closes the one held, or refuses while a transfer waits for the
// admin). Of the pending orders a member holds already, one stays: a transfer submitted if there is
// one (the money may be on its way), else the newest; the others close as replaced, as CreateOrder
// closes them. Their timeout jobs find them closed and do nothing.

export async function up(db: Kysely<unknown>): Promise<void> {
  const at = new Date().toISOString();
  const rank = (table: string) => `(CASE WHEN ${table}.provider = 'manual' THEN 1 ELSE 0 END)`;
  await sql`
    UPDATE orders
    SET status = 2, close_reason = 'replaced', closed_at = ${at}, updated_at = ${at}
    WHERE status = 0 AND EXISTS (
      SELECT 1 FROM orders kept
      WHERE kept.buyer_id = orders.buyer_id AND kept.status = 0 AND kept.id <> orders.id
        AND (${sql.raw(rank('kept'))} > ${sql.raw(rank('orders'))}
          OR (${sql.raw(rank('kept'))} = ${sql.raw(rank('orders'))} AND kept.id > orders.id))
    )`.execute(db);
  await runStatements(db, [
    `DROP INDEX orders_pending_plan`,
    `CREATE UNIQUE INDEX orders_pending_buyer ON orders (buyer_id) WHERE status = 0`,
  ]);
}
