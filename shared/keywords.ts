// A keyword list as uploaders and authors type it (`a，b、c; d`): the backend stores a document's
// words from it (backend/modules/document/keywords.ts), the document and article pages link each
// word to the search (web/src/features/search/KeywordLinks.tsx, gateway/page-html.ts).

/** A keyword list → its words: trimmed, none empty, no duplicates, in the order given. */
export function keywordsOf(keywords: string): string[] {
  return [
    ...new Set(
      keywords
        .split(/[,，、;；\s]+/)
        .map((w) => w.trim())
        .filter(Boolean),
    ),
  ];
}

/** How many of a page's keywords it links to the search: a line or two, not a tag cloud. */
export const SHOWN_KEYWORDS = 8;

/** The keywords a document or article page shows as search links. */
export const shownKeywords = (keywords: string | undefined): string[] =>
  keywordsOf(keywords ?? '').slice(0, SHOWN_KEYWORDS);
