import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { categoriesWithDepth } from '../category/service';
import { usernamesOf } from '../user/service';
import { categoryIdsOf, type DocumentRow } from './store';

// Documents as the lists and GetDocument answer them (endpoints.md ListDocument): the row,
// the uploader's and the deleter's names, the categories root → leaf, `attachment.hash`, and
// the counters the display switches hide from strangers.

export interface Viewer {
  userId: number | null;
  admin: boolean;
}

export type WireDocument = Omit<Partial<DocumentRow>, 'hash' | 'attachment_id'> & {
  username?: string;
  deleted_username?: string;
  category_id?: number[];
  category?: { id: number; title: string; parent_id: number }[];
  attachment?: { hash: string };
  cover?: string;
};

const COUNTER_SWITCHES = [
  ['download_count', 'show_document_download_count'],
  ['view_count', 'show_document_view_count'],
  ['favorite_count', 'show_document_favorite_count'],
] as const;

/** Zeroes the counters whose display switch is off (they are then omitted on the wire). */
export function hideCounters(doc: WireDocument, cfg: ConfigSnapshot): WireDocument {
  const out = { ...doc };
  for (const [column, key] of COUNTER_SWITCHES) if (!cfg.bool('display', key)) out[column] = 0;
  return out;
}

/** The rows with everything a list shows; `fields` narrows the row's own columns (null: all). */
export async function presentDocuments(
  db: Database, rows: readonly DocumentRow[], opts: { viewer: Viewer; cfg: ConfigSnapshot; fields?: readonly string[] | null },
): Promise<WireDocument[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [links, names] = await Promise.all([
    categoryIdsOf(db, ids),
    usernamesOf(db, rows.flatMap((r) => [r.user_id, r.deleted_user_id]).filter((id) => id > 0)),
  ]);
  const categories = new Map((await categoriesWithDepth(db, [...links.values()].flat())).map((c) => [c.id, c]));
  return rows.map((row) => {
    const { hash, attachment_id: _attachmentId, ...columns } = row;
    const own: Partial<DocumentRow> = opts.fields ? Object.fromEntries(opts.fields.map((f) => [f, (columns as Record<string, unknown>)[f]])) : columns;
    const categoryIds = links.get(row.id) ?? [];
    const doc: WireDocument = {
      ...own,
      username: names.get(row.user_id) ?? '',
      deleted_username: names.get(row.deleted_user_id) ?? '',
      category_id: categoryIds,
      category: categoryIds.map((id) => categories.get(id)).filter((c) => c !== undefined)
        .sort((a, b) => a.depth - b.depth).map(({ id, title, parent_id }) => ({ id, title, parent_id })),
      attachment: { hash },
      convert_error: row.convert_error,
    };
    const sees = opts.viewer.admin || (opts.viewer.userId !== null && opts.viewer.userId === row.user_id);
    return sees ? doc : hideCounters(doc, opts.cfg);
  });
}
