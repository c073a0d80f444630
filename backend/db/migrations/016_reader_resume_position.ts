import type { Kysely } from 'kysely';

// Where each member last read each document (the reader offers "继续阅读（第 N 页）" on any of
// their devices). One row per member and document, replaced as they read on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reading_position')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('document_id', 'integer', (col) => col.notNull().references('document.id').onDelete('cascade'))
    .addColumn('page', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('reading_position_pk', ['user_id', 'document_id'])
    .execute();
  await db.schema.createIndex('reading_position_document').on('reading_position').column('document_id').execute();
}
