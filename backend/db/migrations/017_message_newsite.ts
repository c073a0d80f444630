import type { Kysely } from 'kysely';

// The members' 消息 centre (ours): what the site tells a member about their documents and
// comments (approved, rejected, failed to convert, answered). A member reads their own,
// newest first, and counts the unread ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('message')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('target_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('target_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('target_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('message_user').on('message').columns(['user_id', 'id']).execute();
}
