import { sql, type Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import { decodeHtmlEntities } from '../../../shared/html-entities';

// An article's body made plain (the text searched, and the summary made of it when the author
// wrote none) ran a table's cells together until cells were kept apart by a space: the cells 2024
// and 120000 read 2024120000, in the lists, as the search snippet, and to the search. The articles
// saved before keep such a summary until edited. Here the summaries made that way (equal to the
// one the old rule makes of the body) are made again by the new rule, and the article search index
// is refilled (a job, `article.reindex`, run once the site has started), which takes the bodies'
// text by the new rule. A summary the author wrote stays as written. Both rules as they were at
// the time of this migration (backend/platform/rich-text.ts richTextToText, and the summary of
// modules/article/view.ts articleInput): a migration never changes.

/** The characters of the body's text a summary made of it holds. */
const SUMMARY_LENGTH = 200;

function bodyText(html: string, cellsApart: boolean): string {
  let withBreaks = html.replace(/<\/(p|div|h[1-6]|li|blockquote|pre|tr|figcaption|caption)>|<br\s*\/?>/gi, '$&\n');
  if (cellsApart) withBreaks = withBreaks.replace(/<\/(td|th)>/gi, '$& ');
  const text = decodeHtmlEntities(sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} }));
  return text
    .replace(/[ \t\u00a0\u3000]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

function summaryOf(html: string, cellsApart: boolean): string {
  return [...bodyText(html, cellsApart).replace(/\s+/g, ' ')].slice(0, SUMMARY_LENGTH).join('');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; description: string; content: string }>`SELECT id, description, content
    FROM article WHERE lower(content) LIKE '%</td>%' OR lower(content) LIKE '%</th>%' ORDER BY id`.execute(db);
  if (rows.length === 0) return;
  for (const row of rows) {
    if (row.description !== summaryOf(row.content, false)) continue;
    const spaced = summaryOf(row.content, true);
    if (spaced !== row.description)
      await sql`UPDATE article SET description = ${spaced} WHERE id = ${row.id}`.execute(db);
  }
  // The index's texts of these articles are the old ones: every published article upserted again
  // (the job of modules/article/indexing.ts, `refill`: searches keep finding them meanwhile); at
  // most one such job waits (its dedupe key).
  const now = new Date().toISOString();
  await sql`INSERT INTO job (kind, payload, max_attempts, run_after, dedupe_key, created_at, updated_at)
    VALUES ('article.reindex', '{"refill":true}', 3, ${now}, 'article.reindex', ${now}, ${now})
    ON CONFLICT DO NOTHING`.execute(db);
}
