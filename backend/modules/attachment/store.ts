import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { now, type AttachmentTable } from '../../db/schema';

// The `attachment` table: one row per uploaded file, with its MD5; an admin can ban a file
// (enable = 0), and a file with a banned hash is refused at upload.

type NewAttachment = Omit<Insertable<AttachmentTable>, 'id' | 'enable' | 'description' | 'created_at' | 'updated_at' | 'deleted_at'>;

export async function isBannedHash(db: Database, md5: string): Promise<boolean> {
  return (await db.selectFrom('attachment').select('id').where('hash', '=', md5).where('enable', '=', 0).executeTakeFirst()) !== undefined;
}

/** Marks the live attachments of one resource deleted (a user's previous avatars). */
export async function retireAttachments(db: Database, type: number, typeId: number): Promise<void> {
  await db.updateTable('attachment').set({ deleted_at: now() }).where('type', '=', type).where('type_id', '=', typeId).where('deleted_at', 'is', null).execute();
}

export async function insertAttachment(db: Database, attachment: NewAttachment) {
  const ts = now();
  return db.insertInto('attachment').values({ ...attachment, created_at: ts, updated_at: ts, deleted_at: null }).returningAll().executeTakeFirstOrThrow();
}

/** Uploads of one type from one address since `since` (the limit of anonymous uploads). */
export async function countRecentUploads(db: Database, type: number, ip: string, since: string): Promise<number> {
  const { total } = await db.selectFrom('attachment').select((eb) => eb.fn.countAll<number>().as('total'))
    .where('type', '=', type).where('ip', '=', ip).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(total);
}
