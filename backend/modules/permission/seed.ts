import type { Database } from '../../db';
import { chunks } from '../../db/dialect';
import { now } from '../../db/schema';
import type { PermissionSeed } from '../../platform/rpc';

// One permission row per RPC and upload route that declares one (the rows come from
// app.ts's list of services, so a new RPC gets its row at the next start). Read in one query
// and written in one statement per kind of change: the seed runs at every start, under a lock
// that other instances starting on the same database wait for.

/** Adds the missing rows; an existing row keeps its title unless it has none. */
export async function seedPermissions(db: Database, permissions: readonly PermissionSeed[]): Promise<void> {
  const ts = now();
  const rows = await db.selectFrom('permission').select(['id', 'method', 'path', 'title']).execute();
  const known = new Map(rows.map((r) => [`${r.method} ${r.path}`, r]));
  const missing: PermissionSeed[] = [];
  const untitled = new Map<number, string>();
  for (const p of permissions) {
    const key = `${p.method} ${p.path}`;
    const row = known.get(key);
    if (!row) {
      missing.push(p);
      // a route declared twice gets one row, titled by its first declaration
      known.set(key, { id: 0, method: p.method, path: p.path, title: p.title });
    } else if (!row.title && row.id) {
      untitled.set(row.id, p.title);
      row.title = p.title;
    }
  }
  for (const part of chunks(missing))
    await db
      .insertInto('permission')
      .values(part.map((p) => ({ method: p.method, path: p.path, title: p.title, created_at: ts, updated_at: ts })))
      .execute();
  for (const [id, title] of untitled)
    await db.updateTable('permission').set({ title, updated_at: ts }).where('id', '=', id).execute();
}
