// What a search answers for each entry of its page: the title highlighted and a snippet, cut
// around the first match from the stored text (stored-texts.ts reads only the bytes around it).
import type { ParsedQuery } from './bigrams';
import {
  escapeHtml,
  highlightAll,
  highlightWindow,
  leadingSnippet,
  snippetAroundFirstMatch,
  windowAround,
} from './highlight';
import { pageAt } from './pages';
import type { SearchHit } from './search-index';
import type { HitText, HitTextSource } from './stored-texts';

/** Characters of text in a snippet, unless an engine is told otherwise. */
const DEFAULT_SNIPPET_LENGTH = 120;

/** A hit's snippet (HTML) and the page of the text it was cut from (0: not from a paged text). */
interface Snippet {
  html: string;
  page: number;
}

/** An entry of a page, with its bm25 rank (0 when not ranked). */
export interface RankedRow {
  id: number;
  rank: number;
}

/** The byte strings to look for in a stored text, and whether missing them all proves no match. */
interface Needles {
  needles: Buffer[];
  absenceIsProof: boolean;
}

/**
 * A CJK literal or character is searched as it is (the stored text is normalised as the index
 * sees it, so its absence proves that its phrase is not there); a word in its usual casings (a
 * miss then proves nothing: `ＰＹＴＨＯＮ`); a phrase of several words has no literal.
 */
export function needlesOf(parsed: ParsedQuery): Needles {
  const needles: Buffer[] = [];
  let absenceIsProof = true;
  for (const term of parsed.terms) {
    if (term.kind === 'char') {
      needles.push(Buffer.from(term.char));
      continue;
    }
    if (!term.literal) {
      absenceIsProof = false;
      continue;
    }
    const text = term.literal.text;
    if (term.literal.cjk) {
      needles.push(Buffer.from(text));
      continue;
    }
    absenceIsProof = false;
    const casings = new Set([text, text.charAt(0).toUpperCase() + text.slice(1), text.toUpperCase()]);
    for (const casing of casings) needles.push(Buffer.from(casing));
  }
  return { needles, absenceIsProof };
}

export class HitDescriber {
  private readonly snippetLength: number;

  /**
   * @param snippetLength characters of text in a snippet
   */
  constructor(
    private readonly texts: HitTextSource,
    snippetLength = DEFAULT_SNIPPET_LENGTH,
  ) {
    this.snippetLength = Math.max(1, Math.trunc(snippetLength));
  }

  async describe(rows: RankedRow[], parsed: ParsedQuery): Promise<SearchHit[]> {
    if (rows.length === 0) return [];
    const needles = needlesOf(parsed);
    const texts = await this.texts.hitTexts(
      rows.map((row) => row.id),
      needles.needles,
      this.reach,
    );
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const text = texts.get(row.id);
      if (!text) continue;
      const { html, page } = await this.snippet(text, parsed, needles);
      hits.push({
        id: row.id,
        score: row.rank === 0 ? 0 : -row.rank,
        titleHighlight: highlightAll(text.title, parsed),
        snippet: html,
        page,
      });
    }
    return hits;
  }

  /** Bytes of a content window reaches on each side of its needle (see `windowAround`). */
  get reach(): number {
    return this.snippetLength * 4 + 4;
  }

  /**
   * Around the first match in the text, else in the description, else the text's beginning; with
   * the page of the text it is cut from (0: not from a paged text).
   */
  private async snippet(text: HitText, parsed: ParsedQuery, { absenceIsProof }: Needles): Promise<Snippet> {
    if (parsed.titleOnly) return this.beginningSnippet(text);
    if (text.at >= 0) {
      const window = windowAround(text.window, text.at, this.snippetLength, text.start, text.size);
      const html = highlightWindow(window.text, parsed, window.cutBefore, window.cutAfter);
      if (html !== undefined) return { html, page: pageAt(text.pageStarts, text.at) };
    }
    const inDescription = snippetAroundFirstMatch(await this.descriptionOf(text), parsed, this.snippetLength);
    if (inDescription !== undefined) return { html: inDescription.html, page: 0 };
    if (text.at >= 0 || !absenceIsProof) {
      // The byte search missed (a word inside a longer one, another casing, a full-width form):
      // decode the whole text and match it the way the index does.
      const content = await this.texts.column(text.id, 'content');
      const around = snippetAroundFirstMatch(content, parsed, this.snippetLength);
      if (around !== undefined)
        return { html: around.html, page: pageAt(text.pageStarts, Buffer.byteLength(content.slice(0, around.at))) };
    }
    return this.beginningSnippet(text);
  }

  /** The hit's description: it comes with the hit only when the text holds no needle. */
  private async descriptionOf(text: HitText): Promise<string> {
    return text.description ?? this.texts.column(text.id, 'description');
  }

  /** The text's beginning, else the description's. */
  private async beginningSnippet(text: HitText): Promise<Snippet> {
    if (text.size === 0) return { html: leadingSnippet(await this.descriptionOf(text), this.snippetLength), page: 0 };
    const bytes = text.start === 0 ? text.window : await this.texts.leadingBytes(text.id, this.reach);
    const window = windowAround(bytes, 0, this.snippetLength, 0, text.size);
    return { html: `${escapeHtml(window.text)}${window.cutAfter ? '…' : ''}`, page: pageAt(text.pageStarts, 0) };
  }
}
