import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A download keeps why it cost what it did (`reason`, shared/messages/download.ts DownloadReason),
// which 我的下载 shows: a VIP member sees what the membership spared them. Earlier rows get what
// can still be told: a paid one `paid`; one by the document's uploader `owner`; one of a document
// priced 0 `free`. A free download of a priced document (bought before, VIP, review) stays NULL,
// shown as 免费 as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE download ADD COLUMN reason TEXT`,
    `UPDATE download SET reason = 'paid' WHERE is_pay = 1`,
    `UPDATE download SET reason = 'owner'
      WHERE reason IS NULL AND EXISTS (
        SELECT 1 FROM document WHERE document.id = download.document_id AND document.user_id = download.user_id)`,
    `UPDATE download SET reason = 'free'
      WHERE reason IS NULL AND EXISTS (
        SELECT 1 FROM document WHERE document.id = download.document_id AND document.price <= 0)`,
  ]);
}
