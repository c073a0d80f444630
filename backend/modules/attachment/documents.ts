import type { Database } from '../../db';

// Seam to the document module: which documents still exist (in the library or in the recycle
// bin), so that the file of a live document is never deleted as a mere attachment. Reads the
// `document` table until the document module's service.ts offers this question.

/** Title of each of these documents that still exists, by id. */
export async function documentsHoldingAttachments(db: Database, documentIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(documentIds.filter((id) => id > 0))];
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('document').select(['id', 'title']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.title]));
}
