import type { Database } from '../../db';
import { chunks } from '../../db/dialect';
import { now } from '../../db/schema';
import { configSnapshotOf, settingsChanged, type ConfigSnapshot } from '../../platform/config-store';
import { CONFIG_KEYS } from './keys';

// Every config key gets its row: a missing row is created with the CONFIG_<CATEGORY>_<KEY>
// preset or the default; an existing row keeps its value (unless it is a retired default, which
// gets what a new row would) and gets the current metadata. Rows already as they should be are
// not written: a restart of an unchanged site writes nothing here. Answers the settings whose
// preset differs from the value kept, so that the start can say the variable was not applied,
// and the settings as they now are (what the rest of the seed writes may depend on them).

const META_COLUMNS = ['label', 'placeholder', 'input_type', 'sort', 'options', 'col_num', 'is_secret'] as const;

export async function seedConfig(
  db: Database,
  presets: Record<string, Record<string, string>>,
): Promise<{ presetsNotApplied: { category: string; name: string }[]; settings: ConfigSnapshot }> {
  const ts = now();
  const configRows = await db
    .selectFrom('config')
    .select(['id', 'category', 'name', 'value', ...META_COLUMNS])
    .execute();
  const existing = new Map(configRows.map((r) => [`${r.category}.${r.name}`, r]));
  const missing = [];
  let changed = 0;
  const kept = [];
  const settled = [];
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
    // what the row holds once seeded: its own value, unless it is new or a retired default
    const held = row !== undefined && !key.retired?.includes(row.value) ? row.value : value;
    settled.push({
      category: key.category,
      name: key.name,
      input_type: key.input_type,
      value: held,
    });
    if (row === undefined) {
      missing.push({ ...meta, category: key.category, name: key.name, value, created_at: ts, updated_at: ts });
    } else if (key.retired?.includes(row.value)) {
      await db
        .updateTable('config')
        .set({ ...meta, value, updated_at: ts })
        .where('id', '=', row.id)
        .execute();
      changed += 1;
    } else {
      const preset = presets[key.category]?.[key.name];
      if (preset !== undefined && preset !== row.value) kept.push({ category: key.category, name: key.name });
      if (META_COLUMNS.some((column) => row[column] !== meta[column])) {
        await db.updateTable('config').set(meta).where('id', '=', row.id).execute();
        changed += 1;
      }
    }
  }
  for (const part of chunks(missing)) await db.insertInto('config').values(part).execute();
  // Other processes on this database see new keys and labels without a restart.
  if (missing.length || changed) await settingsChanged(db);
  return { presetsNotApplied: kept, settings: configSnapshotOf(settled) };
}
