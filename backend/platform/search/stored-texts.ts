// The texts the search engine was given, normalised as it indexed them: kept to rebuild the
// tokens after a tokenizer change and to cut the hits' snippets from. A long text's snippet is
// looked for in its head first, a copy of its first HEAD_BYTES bytes: a word that is there (a
// common word, mostly) never makes SQLite read the rest of a book, which for a text at the
// 1-million-character cap is 3 MB a hit.
import type SQLite from 'better-sqlite3';
import { normalizeText } from './bigrams';
import { normalizePages, pageCount, pageStart } from './pages';
import type { SearchEntry } from './search-index';

/** Texts longer than this (in UTF-8 bytes) keep a copy of their beginning for the snippets. */
export const HEAD_BYTES = 64 * 1024;
// Indexing runs on the caller's thread at about a million characters a second: a text is kept
// and indexed up to here (some 500 pages), so that one upsert never stalls the process long.
export const MAX_CONTENT_LENGTH = 1_000_000;

const BATCH = 200;

// What SQLite's `instr` stands for "no needle here".
const NOT_FOUND = '9223372036854775807';

export interface StoredText {
  id: number;
  title: string;
  keywords: string;
  description: string;
  content: string;
  /** a paged text's page starts (pages.ts); null when the entry is not paged */
  pageStarts?: Buffer | null;
  /** how many of the content's first UTF-8 bytes a snippet may show (SearchEntry.shownPages); absent when read back for its tokens */
  shownBytes?: number;
}

/** The bytes of `content` (normalised, paged when `starts` is given) that its first `shownPages` pages take. */
function shownBytesOf(content: string, starts: Buffer | null, shownPages: number | undefined): number {
  const size = Buffer.byteLength(content);
  if (shownPages === undefined) return size;
  if (!starts) return 0;
  return shownPages < pageCount(starts) ? pageStart(starts, Math.max(0, Math.trunc(shownPages)) + 1) : size;
}

/**
 * An entry's texts as every engine stores and tokenizes them: normalised, the content capped, a paged one's page
 * starts.
 */
export function storedTextOf(entry: SearchEntry): StoredText {
  const content =
    entry.content.length > MAX_CONTENT_LENGTH ? entry.content.slice(0, MAX_CONTENT_LENGTH) : entry.content;
  const pages = entry.paged ? normalizePages(content) : null;
  const normalized = pages ? pages.text : normalizeText(content);
  return {
    id: entry.id,
    title: normalizeText(entry.title),
    keywords: normalizeText(entry.keywords),
    description: normalizeText(entry.description),
    content: normalized,
    pageStarts: pages?.starts ?? null,
    shownBytes: shownBytesOf(normalized, pages?.starts ?? null, entry.shownPages),
  };
}

/**
 * A hit's texts: the title as a string, and of the content only a window of its UTF-8 bytes,
 * cut by SQLite around the first byte occurrence of a needle (or at its start). The description
 * comes along only when no needle is in the part of the content a snippet may show (the snippet
 * is then looked for in it). The window may reach past that part: search-hits.ts never shows it.
 */
export interface HitText {
  id: number;
  title: string;
  /** null when a needle is in the content: column() reads it if it is wanted after all */
  description: string | null;
  /** byte length of the content */
  size: number;
  /** byte offset of the first needle found in the content, or -1 */
  at: number;
  /** where `window` starts in the content */
  start: number;
  window: Buffer;
  /** a paged text's page starts (pages.ts), else null */
  pageStarts: Buffer | null;
  /** how many of the content's first bytes a snippet may show (0 for a text stored before this was kept) */
  shown: number;
}

/** What the hits read of an engine's stored texts: at once from SQLite, through a promise from PostgreSQL. */
export interface HitTextSource {
  /** The hits' texts, a window of each content around the first needle (see StoredTexts.hitTexts). */
  hitTexts(ids: number[], needles: Buffer[], reach: number): Map<number, HitText> | Promise<Map<number, HitText>>;
  /** One stored column of a text: the whole content, or the description of a hit that came without it. */
  column(id: number, name: 'description' | 'content'): string | Promise<string>;
  /** The first `count` bytes of the content's UTF-8. */
  leadingBytes(id: number, count: number): Buffer | Promise<Buffer>;
  /** The whole contents' UTF-8 of some texts, in one statement. */
  contents(ids: number[]): Map<number, Buffer> | Promise<Map<number, Buffer>>;
}

/**
 * The first HEAD_BYTES of the text's UTF-8, cut before a character, with the text's byte length; null for a short text.
 */
export function headOf(content: string): { head: Buffer; size: number } | null {
  if (Buffer.byteLength(content) <= HEAD_BYTES) return null;
  const bytes = Buffer.from(content);
  let end = HEAD_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { head: bytes.subarray(0, end), size: bytes.length };
}

export class StoredTexts implements HitTextSource {
  private readonly table: string;
  private readonly heads: string;

  constructor(
    private readonly sqlite: SQLite.Database,
    collection: string,
    private readonly statement: (sql: string) => SQLite.Statement,
  ) {
    this.table = `search_${collection}_text`;
    this.heads = `search_${collection}_text_head`;
  }

  /** Creates the tables; copies the heads of the texts stored before the heads' table existed. */
  create(): void {
    this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      keywords TEXT NOT NULL,
      description TEXT NOT NULL,
      content TEXT NOT NULL,
      page_starts BLOB,
      shown_bytes INTEGER
    )`);
    // A table made before the pages were kept: entries get their starts when next upserted.
    const columns = this.sqlite.prepare(`SELECT name FROM pragma_table_info('${this.table}')`).all() as {
      name: string;
    }[];
    if (!columns.some((column) => column.name === 'page_starts'))
      this.sqlite.exec(`ALTER TABLE ${this.table} ADD COLUMN page_starts BLOB`);
    // One made before the snippets kept to what they may show: its texts show nothing (NULL) until upserted again.
    if (!columns.some((column) => column.name === 'shown_bytes'))
      this.sqlite.exec(`ALTER TABLE ${this.table} ADD COLUMN shown_bytes INTEGER`);
    const headsAreNew = !this.sqlite.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(this.heads);
    this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.heads} (
      id INTEGER PRIMARY KEY,
      head BLOB NOT NULL,
      size INTEGER NOT NULL
    )`);
    if (headsAreNew)
      this.forEach<{ id: number; content: string }>('id, content', (row) => this.putHead(row.id, row.content));
  }

  put(text: StoredText): void {
    this.statement(
      `INSERT OR REPLACE INTO ${this.table} (id, title, keywords, description, content, page_starts, shown_bytes) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      text.id,
      text.title,
      text.keywords,
      text.description,
      text.content,
      text.pageStarts ?? null,
      text.shownBytes ?? null,
    );
    this.putHead(text.id, text.content);
  }

  private putHead(id: number, content: string): void {
    const head = headOf(content);
    if (head)
      this.statement(`INSERT OR REPLACE INTO ${this.heads} (id, head, size) VALUES (?, ?, ?)`).run(
        id,
        head.head,
        head.size,
      );
    else this.statement(`DELETE FROM ${this.heads} WHERE id = ?`).run(id);
  }

  remove(id: number): void {
    for (const table of [this.table, this.heads]) this.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
  }

  clear(): void {
    for (const table of [this.table, this.heads]) this.sqlite.prepare(`DELETE FROM ${table}`).run();
  }

  /** Hands every stored text (these columns of it) to `visit`, in id order, a batch at a time. */
  forEach<Row extends { id: number }>(columns: string, visit: (row: Row) => void): void {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.batchAfter<Row>(columns, after, BATCH);
      for (const row of rows) visit(row);
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** These columns of the first `count` stored texts whose id is above `after`, in id order. */
  batchAfter<Row extends { id: number }>(columns: string, after: number, count: number): Row[] {
    return this.statement(
      `SELECT ${columns} FROM ${this.table} WHERE id > ? ORDER BY id LIMIT ${Math.trunc(count)}`,
    ).all(after) as Row[];
  }

  /**
   * The hits' texts, with only a window of each content, `reach` bytes on each side of the first
   * occurrence of any needle (`instr` on the UTF-8 bytes), or its first `reach` bytes when none
   * is there. A long text is searched in its head; only where no needle is there, whole.
   */
  hitTexts(ids: number[], needles: Buffer[], reach: number): Map<number, HitText> {
    const fromHeads = this.windows(ids, needles, reach, 'heads');
    const texts = new Map<number, HitText>(fromHeads.map((text) => [text.id, text]));
    const further =
      needles.length === 0 ? [] : fromHeads.filter((text) => text.partial && text.at < 0).map((text) => text.id);
    if (further.length > 0) for (const text of this.windows(further, needles, reach, 'whole')) texts.set(text.id, text);
    return texts;
  }

  private windows(
    ids: number[],
    needles: Buffer[],
    reach: number,
    source: 'heads' | 'whole',
  ): (HitText & { partial: number })[] {
    // min() of one argument would be the aggregate: NOT_FOUND is always one more.
    const first =
      needles.length === 0
        ? NOT_FOUND
        : `min(${[...needles.map(() => `coalesce(nullif(instr(c, ?), 0), ${NOT_FOUND})`), NOT_FOUND].join(', ')})`;
    // coalesce() reads the content only for a text without a head.
    const texts =
      source === 'heads'
        ? `SELECT t.id, t.title, t.description, coalesce(h.head, CAST(t.content AS BLOB)) AS c, h.size AS size, h.id IS NOT NULL AS partial, t.page_starts AS ps, coalesce(t.shown_bytes, 0) AS shown
            FROM ${this.table} AS t LEFT JOIN ${this.heads} AS h ON h.id = t.id WHERE t.id IN (SELECT value FROM json_each(?))`
        : `SELECT id, title, description, CAST(content AS BLOB) AS c, NULL AS size, 0 AS partial, page_starts AS ps, coalesce(shown_bytes, 0) AS shown FROM ${this.table} WHERE id IN (SELECT value FROM json_each(?))`;
    // Each step a subquery that SQLite runs as a co-routine (OFFSET keeps it from flattening
    // them, which would repeat the search in every expression that uses its result, and from
    // copying the texts into a temporary table): the text is read and searched once.
    const sql = `SELECT id, title, CASE WHEN at < 0 OR at >= shown THEN description END AS description, size, at, partial, max(0, at - ${reach}) AS start,
        substr(c, max(0, at - ${reach}) + 1, CASE WHEN at < 0 THEN ${reach} ELSE at + ${reach} - max(0, at - ${reach}) END) AS window, ps AS pageStarts, shown
      FROM (SELECT id, title, description, c, size, partial, ps, shown, CASE WHEN found = ${NOT_FOUND} THEN -1 ELSE found - 1 END AS at
        FROM (SELECT id, title, description, c, coalesce(size, length(c)) AS size, partial, ps, shown, ${first} AS found
          FROM (${texts} LIMIT -1 OFFSET 0)
          LIMIT -1 OFFSET 0))`;
    return this.statement(sql).all(...needles, JSON.stringify(ids)) as (HitText & { partial: number })[];
  }

  /** Whether a text stored before the index kept what its snippets may show is still there. */
  anyWithoutShownPart(): boolean {
    return this.statement(`SELECT 1 FROM ${this.table} WHERE shown_bytes IS NULL LIMIT 1`).get() !== undefined;
  }

  /** One stored column of a text: the whole content, or the description of a hit that came without it. */
  column(id: number, name: 'description' | 'content'): string {
    return (
      (
        this.statement(`SELECT ${name} AS value FROM ${this.table} WHERE id = ?`).get(id) as
          { value: string } | undefined
      )?.value ?? ''
    );
  }

  /** The whole contents' UTF-8 of some texts, in one statement. */
  contents(ids: number[]): Map<number, Buffer> {
    const rows = this.statement(
      `SELECT id, CAST(content AS BLOB) AS content FROM ${this.table} WHERE id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as { id: number; content: Buffer }[];
    return new Map(rows.map((row) => [row.id, row.content]));
  }

  /** The first `count` bytes of the content's UTF-8. */
  leadingBytes(id: number, count: number): Buffer {
    const row = this.statement(
      `SELECT substr(coalesce(h.head, CAST(t.content AS BLOB)), 1, ?) AS bytes FROM ${this.table} AS t LEFT JOIN ${this.heads} AS h ON h.id = t.id WHERE t.id = ?`,
    ).get(count, id) as { bytes: Buffer } | undefined;
    return row?.bytes ?? Buffer.alloc(0);
  }
}
