import type { Database } from '../../db';
import { now } from '../../db/schema';
import { settingsChanged } from '../../platform/config-store';
import { CONFIG_KEYS } from './keys';

// Every config key gets its row: a missing row is created with the CONFIG_<CATEGORY>_<KEY>
// preset or the default; an existing row keeps its value (unless it is a retired default, which
// gets what a new row would) and gets the current metadata.

export async function seedConfig(db: Database, presets: Record<string, Record<string, string>>): Promise<void> {
  const ts = now();
  const configRows = await db.selectFrom('config').select(['id', 'category', 'name', 'value']).execute();
  const existing = new Map(configRows.map((r) => [`${r.category}.${r.name}`, r]));
  for (const key of CONFIG_KEYS) {
    const meta = {
      label: key.label,
      placeholder: key.placeholder ?? '',
      input_type: key.input_type,
      sort: key.sort,
      options: key.options ?? '',
      col_num: key.col_num ?? 24,
      is_secret: key.is_secret ? 1 : 0,
    };
    const row = existing.get(`${key.category}.${key.name}`);
    const value = presets[key.category]?.[key.name] ?? key.value;
    if (row === undefined) {
      await db
        .insertInto('config')
        .values({ ...meta, category: key.category, name: key.name, value, created_at: ts, updated_at: ts })
        .execute();
    } else if (key.retired?.includes(row.value)) {
      await db
        .updateTable('config')
        .set({ ...meta, value, updated_at: ts })
        .where('id', '=', row.id)
        .execute();
    } else {
      await db.updateTable('config').set(meta).where('id', '=', row.id).execute();
    }
  }
  // Other processes on this database see new keys and labels without a restart.
  await settingsChanged(db);
}
