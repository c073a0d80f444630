import type { Kysely } from 'kysely';

// The admin password the first start generated and printed, kept as its hash: while the
// account still has that hash, the dashboard's checklist asks the admin to change it (the
// password sits in the start's output and logs). Goes with the account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('initial_password')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
