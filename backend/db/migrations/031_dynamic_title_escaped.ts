import { sql, type Kysely } from 'kysely';

// A dynamic that quotes a title (commented 1, favourited 2, uploaded 3, downloaded 4, deleted
// 14) holds HTML since the title is escaped where the dynamic is written (user module,
// `dynamicTitle`); the ones written before kept the raw title, which MOREDOC's client ran as
// markup. They are escaped once here. A content already escaped (no raw `<>"'`, every `&`
// one of the five entities) is left as it is, so that a site which wrote some dynamics the
// new way before this migration does not get them escaped twice.

const QUOTING_TYPES = [1, 2, 3, 4, 14];

/** The escaping of platform/search/highlight.ts at the time of this migration (a migration never changes). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** True when the content holds a character escaping would have turned into an entity. */
function isRaw(content: string): boolean {
  return /[<>"']|&(?!(?:amp|lt|gt|quot|#39);)/.test(content);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; content: string }>`SELECT id, content FROM dynamic
    WHERE type IN (${sql.join(QUOTING_TYPES)})
      AND (content LIKE '%<%' OR content LIKE '%>%' OR content LIKE '%&%' OR content LIKE '%"%' OR content LIKE '%''%')
    ORDER BY id`.execute(db);
  for (const row of rows) {
    if (!isRaw(row.content)) continue;
    const escaped = row.content.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
    await sql`UPDATE dynamic SET content = ${escaped} WHERE id = ${row.id}`.execute(db);
  }
}
