import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { memberConversionReason } from '../../platform/convert/converter';
import { usernamesOf } from '../user/service';
import { categoriesOfDocuments, type DocumentCategory, type DocumentNames, type DocumentRow } from './store';

// Documents as the lists and GetDocument answer them (docs/moredoc.md §6, docs/api.md §7): the row,
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
/** What a download or favourite row shows of its document. */
export function listedDocumentFields(doc: DocumentRow) {
  return {
    title: doc.title,
    ext: doc.ext,
    score: doc.score,
    size: doc.size,
    pages: doc.pages,
    document_uuid: doc.uuid,
  };
}

export function hideCounters(doc: WireDocument, cfg: ConfigSnapshot): WireDocument {
  const out = { ...doc };
  for (const [column, key] of COUNTER_SWITCHES) if (!cfg.bool('display', key)) out[column] = 0;
  return out;
}

/**
 * The rows with everything a list shows; `fields` narrows the row's own columns (null: all). A
 * visitor of a site open to members only gets no description (ConfigSnapshot.withholdsText).
 * Rows read with their DocumentNames (listDocuments, documentWithFile) need no lookup of the
 * names; `categories`, when the caller read them already, none of the categories.
 */
export async function presentDocuments(
  db: Database,
  rows: readonly (DocumentRow & Partial<DocumentNames>)[],
  opts: {
    viewer: Viewer;
    cfg: ConfigSnapshot;
    fields?: readonly string[] | null;
    categories?: Map<number, DocumentCategory[]>;
  },
): Promise<WireDocument[]> {
  if (!rows.length) return [];
  const named = rows.every((r) => r.username !== undefined && r.deleted_username !== undefined);
  const [links, names] = await Promise.all([
    opts.categories ??
      categoriesOfDocuments(
        db,
        rows.map((r) => r.id),
      ),
    named
      ? null
      : usernamesOf(
          db,
          rows.flatMap((r) => [r.user_id, r.deleted_user_id]).filter((id) => id > 0),
        ),
  ]);
  const withheld = opts.cfg.withholdsText(opts.viewer.userId);
  const nameOf = (id: number, known: string | null | undefined) => (names ? names.get(id) : known) ?? '';
  return rows.map((row) => {
    const { hash, attachment_id: _attachmentId, username, deleted_username: deletedUsername, ...columns } = row;
    const own: Partial<DocumentRow> = opts.fields
      ? Object.fromEntries(opts.fields.map((f) => [f, (columns as Record<string, unknown>)[f]]))
      : columns;
    const categories = links.get(row.id) ?? [];
    const doc: WireDocument = {
      ...own,
      username: nameOf(row.user_id, username),
      deleted_username: nameOf(row.deleted_user_id, deletedUsername),
      category_id: categories.map((c) => c.category_id),
      category: categories
        .filter((c) => c.title !== null)
        .sort((a, b) => a.depth! - b.depth!)
        .map((c) => ({ id: c.category_id, title: c.title!, parent_id: c.parent_id! })),
      attachment: { hash },
      // The admins read the cause as stored (LibreOffice 无法转换此文档); the uploader, in their words.
      convert_error: opts.viewer.admin ? row.convert_error : memberConversionReason(row.convert_error),
    };
    if (withheld && doc.description !== undefined) doc.description = '';
    const sees = opts.viewer.admin || (opts.viewer.userId !== null && opts.viewer.userId === row.user_id);
    return sees ? doc : hideCounters(doc, opts.cfg);
  });
}
