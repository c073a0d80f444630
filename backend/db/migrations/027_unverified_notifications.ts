import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// `payment_notification.verified`: 0 for a notification refused before it reached the order
// module (bad or missing signature, stale timestamp, another app or merchant, unreadable):
// anyone can post those, so only the newest are kept (modules/payment/store.ts), found by the
// index. The ones kept before this version are the refused rows without order, trade or amount,
// as the notify route wrote them (a verified notification always names its trade and amount).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE payment_notification ADD COLUMN verified INTEGER NOT NULL DEFAULT 1`,
    `UPDATE payment_notification SET verified = 0
    WHERE outcome = 'refused' AND order_id = 0 AND trade_no = '' AND amount = 0`,
    `CREATE INDEX payment_notification_verified ON payment_notification (verified, id)`,
  ]);
}
