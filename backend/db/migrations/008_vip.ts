import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// VIP membership, orders and payment (docs/api.md §9–§11): a member's VIP period and its
// history, the orders that buy it, and every payment notification a provider sent.
const statements = [
  // One row per member who ever had VIP; `end_at` in the past means expired.
  `CREATE TABLE user_vip (
    user_id INTEGER PRIMARY KEY REFERENCES user (id) ON DELETE CASCADE,
    plan_code TEXT NOT NULL DEFAULT '',
    plan_title TEXT NOT NULL DEFAULT '',
    start_at TEXT NOT NULL,
    end_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX user_vip_end ON user_vip (end_at)`,
  // Every change of a period, with who made it and why (1 purchase, 2 grant, 3 revoke, 4 refund).
  `CREATE TABLE vip_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
    action INTEGER NOT NULL,
    days INTEGER NOT NULL DEFAULT 0,
    order_id INTEGER NOT NULL DEFAULT 0,
    operator_id INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    end_before TEXT,
    end_after TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX vip_log_user ON vip_log (user_id, id)`,
  // Orders are bookkeeping: the buyer is `buyer_id` + `buyer_name` (no user_id column), so
  // deleting an account, which sweeps every user_id table, keeps its orders. Amounts in fen.
  `CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_no TEXT NOT NULL UNIQUE,
    buyer_id INTEGER NOT NULL,
    buyer_name TEXT NOT NULL,
    plan_code TEXT NOT NULL,
    plan_title TEXT NOT NULL,
    days INTEGER NOT NULL CHECK (days > 0),
    amount INTEGER NOT NULL CHECK (amount > 0),
    status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
    provider TEXT NOT NULL DEFAULT '',
    trade_no TEXT NOT NULL DEFAULT '',
    paid_amount INTEGER NOT NULL DEFAULT 0,
    close_reason TEXT NOT NULL DEFAULT '',
    late_paid INTEGER NOT NULL DEFAULT 0,
    remark TEXT NOT NULL DEFAULT '',
    vip_start_at TEXT,
    vip_end_at TEXT,
    expires_at TEXT NOT NULL,
    paid_at TEXT,
    closed_at TEXT,
    refunded_at TEXT,
    checked_at TEXT,
    ip TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  // A member has at most one pending order per plan: a double click on "pay" finds the first.
  `CREATE UNIQUE INDEX orders_pending_plan ON orders (buyer_id, plan_code) WHERE status = 0`,
  `CREATE INDEX orders_buyer ON orders (buyer_id, id)`,
  `CREATE INDEX orders_status ON orders (status, id)`,
  // Every notification that reached a notify route, verified or not: what the admin reads.
  `CREATE TABLE payment_notification (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    order_no TEXT NOT NULL DEFAULT '',
    order_id INTEGER NOT NULL DEFAULT 0,
    trade_no TEXT NOT NULL DEFAULT '',
    amount INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL CHECK (outcome IN ('paid', 'repeated', 'late', 'ignored', 'refused')),
    reason TEXT NOT NULL DEFAULT '',
    raw TEXT NOT NULL,
    ip TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX payment_notification_order ON payment_notification (order_id, id)`,
  `CREATE INDEX payment_notification_outcome ON payment_notification (outcome, id)`,
  // The first pay keys were shared by both providers; they become Alipay's and WeChat's own
  // (the seed then refreshes their labels). Nothing read them before this version.
  `UPDATE config SET name = 'alipay_app_id' WHERE category = 'pay' AND name = 'app_id'`,
  `UPDATE config SET name = 'alipay_private_key' WHERE category = 'pay' AND name = 'private_key'`,
  `UPDATE config SET name = 'alipay_public_key' WHERE category = 'pay' AND name = 'public_key'`,
  `UPDATE config SET name = 'wechat_mch_id' WHERE category = 'pay' AND name = 'merchant_id'`,
  `UPDATE config SET name = 'wechat_api_v3_key' WHERE category = 'pay' AND name = 'api_key'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
