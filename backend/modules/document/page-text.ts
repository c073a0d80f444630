import { PAGE_BREAK } from '../../platform/convert/converter';
import type { DocumentText } from './store';

// What of a document's text may leave the backend: only the text of the pages the asker may
// read (access.ts, readablePages), so that the text never tells more than the page images. A
// text kept since the conversion holds its pages apart (a form feed between them); one that is
// not split (converted before the pages were kept apart, or written through UpdateDocument)
// cannot be cut at a page, so it goes only to readers of every page and never becomes a
// description. It is split when its file is converted again (a reconversion): re-extracting
// the texts of a whole library at start would cost a conversion's CPU per file, which the
// admins' reconversion already spends where they choose.

const DESCRIPTION_LENGTH = 255;

/** The first `pages` pages of a split text, form feeds between them (all of it when it has fewer). */
export function firstPages(content: string, pages: number): string {
  let end = -1;
  for (let page = 0; page < pages; page++) {
    end = content.indexOf(PAGE_BREAK, end + 1);
    if (end < 0) return content;
  }
  return content.slice(0, Math.max(0, end));
}

/**
 * What a reader of `readable` pages may have of the text of a document of `total` pages (or of
 * its beginning, as GetDocument reads it): the text of those pages; a text not split into pages
 * only when they may read every page, else nothing.
 */
export function readableText(text: DocumentText, readable: number, total: number): string {
  if (text.pages === 0) return readable >= total ? text.content : '';
  return firstPages(text.content, readable);
}

/**
 * How many of the first pages of a document's text a search snippet may show anybody (the search answer is the same
 * for every asker): the free ones; of a text not split into pages, all of it only when every page is free, else none.
 * Undefined: all of it.
 */
export function searchSnippetPages(text: DocumentText, free: number, total: number): number | undefined {
  if (text.pages === 0) return free >= total ? undefined : 0;
  return free >= text.pages ? undefined : free;
}

/**
 * An empty description's stand-in, which lists show to everybody: the first 255 characters, on
 * one line, of the pages anybody may read (`free`, of `total`).
 */
export function descriptionFrom(text: DocumentText, free: number, total: number): string {
  return [...readableText(text, free, total).replace(/\s+/g, ' ').trim()].slice(0, DESCRIPTION_LENGTH).join('');
}
