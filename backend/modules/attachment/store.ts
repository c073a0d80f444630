import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { databaseNowText } from '../../db/dialect';
import { now, type AttachmentTable } from '../../db/schema';
import { countFromClient } from '../../wire/request';

// The `attachment` table: one row per uploaded file, with its MD5; an admin can ban a file
// (enable = 0), and a file with a banned hash is refused at upload.

type NewAttachment = Omit<
  Insertable<AttachmentTable>,
  'id' | 'enable' | 'description' | 'created_at' | 'updated_at' | 'deleted_at'
>;

export async function isBannedHash(db: Database, md5: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('attachment')
      .select('id')
      .where('hash', '=', md5)
      .where('enable', '=', 0)
      .executeTakeFirst()) !== undefined
  );
}

/** Marks the live attachments of one resource deleted (a user's previous avatars). */
export async function retireAttachments(db: Database, type: number, typeId: number): Promise<void> {
  await db
    .updateTable('attachment')
    .set({ deleted_at: now() })
    .where('type', '=', type)
    .where('type_id', '=', typeId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Stamped by the database's clock, which a visitor's hourly limit counts by (countRecentUploads). */
export async function insertAttachment(db: Database, attachment: NewAttachment) {
  const ts = databaseNowText(db);
  return db
    .insertInto('attachment')
    .values({ ...attachment, created_at: ts, updated_at: ts, deleted_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Attachment type of uploaded documents (docs/moredoc.md §12). */
export const DOCUMENT_ATTACHMENT_TYPE = 2;

/** The caller's live document uploads among `ids`. */
export async function documentUploadsOf(db: Database, userId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('attachment')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where('user_id', '=', userId)
    .where('type', '=', DOCUMENT_ATTACHMENT_TYPE)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Points a document upload at the document made from it (`type_id`); false when it already
 * names a document (an upload makes one document only) and nothing changed.
 */
export async function linkAttachment(db: Database, attachmentId: number, documentId: number): Promise<boolean> {
  const result = await db
    .updateTable('attachment')
    .set({ type_id: documentId, updated_at: now() })
    .where('id', '=', attachmentId)
    .where('type_id', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks the uploads of purged documents deleted; their files go once nothing uses the hash. */
export async function retireDocumentAttachments(db: Database, attachmentIds: readonly number[]): Promise<void> {
  if (!attachmentIds.length) return;
  await db
    .updateTable('attachment')
    .set({ deleted_at: now() })
    .where('id', 'in', [...attachmentIds])
    .where('deleted_at', 'is', null)
    .execute();
}

/** Does a live document upload hold this hash? */
export async function hashHasLiveUpload(db: Database, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('attachment')
    .select('id')
    .where('hash', '=', hash)
    .where('type', '=', DOCUMENT_ATTACHMENT_TYPE)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every stored path of a document file (the same content may have been uploaded under several extensions). */
export async function documentUploadPaths(db: Database, hash: string): Promise<string[]> {
  const rows = await db
    .selectFrom('attachment')
    .select('path')
    .distinct()
    .where('hash', '=', hash)
    .where('type', '=', DOCUMENT_ATTACHMENT_TYPE)
    .execute();
  return rows.map((r) => r.path);
}

/**
 * Uploads of `type` from `ip`'s client (countFromClient) within the last `withinMs` by the database's clock (the limit of
 * anonymous uploads).
 */
export async function countRecentUploads(
  db: Database,
  type: number,
  client: { ip: string; ipv6Prefix: number },
  withinMs: number,
): Promise<number> {
  return countFromClient(
    db,
    db.selectFrom('attachment').where('type', '=', type).where('created_at', '>=', databaseNowText(db, -withinMs)),
    client.ip,
    client.ipv6Prefix,
  );
}
