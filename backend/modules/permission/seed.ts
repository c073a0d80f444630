import type { Database } from '../../db';
import { now } from '../../db/schema';
import type { PermissionSeed } from '../../platform/rpc';

// One permission row per RPC and upload route that declares one (the rows come from
// app.ts's list of services, so a new RPC gets its row at the next start).

/** Adds the missing rows; an existing row keeps its title unless it has none. */
export async function seedPermissions(db: Database, permissions: readonly PermissionSeed[]): Promise<void> {
  const ts = now();
  for (const p of permissions) {
    const existing = await db
      .selectFrom('permission')
      .select(['id', 'title'])
      .where('method', '=', p.method)
      .where('path', '=', p.path)
      .executeTakeFirst();
    if (!existing) {
      await db
        .insertInto('permission')
        .values({ method: p.method, path: p.path, title: p.title, created_at: ts, updated_at: ts })
        .execute();
    } else if (!existing.title) {
      await db
        .updateTable('permission')
        .set({ title: p.title, updated_at: ts })
        .where('id', '=', existing.id)
        .execute();
    }
  }
}
