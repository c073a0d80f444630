// The stored texts of the PostgreSQL engine: what stored-texts.ts keeps for SQLite, in the same
// shape (the normalised texts, a long text's first HEAD_BYTES apart), as UTF-8 bytea so that
// the snippet's window is cut by byte offsets as SQLite cuts it, and any character (a NUL
// too) is kept as given. Stored uncompressed (STORAGE EXTERNAL): a hit reads its text whole
// once to find the first needle, then only the chunks of the window or of the beginning.
import { CompiledQuery, type Kysely } from 'kysely';
import { Statement } from './postgres-search-plan';
import { headOf, type HitText, type HitTextSource, type StoredText } from './stored-texts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index works on any database's Kysely
export type Executor = Kysely<any>;

export async function rowsOf<Row>(db: Executor, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...params]))).rows;
}

interface StoredRow {
  id: number;
  title: Buffer;
  keywords: Buffer;
  description: Buffer;
  content: Buffer;
}

/** A text's window as the server cuts it (see windows()). */
export interface WindowRow {
  id: number;
  title: Buffer;
  description: Buffer | null;
  size: number;
  at: number;
  start: number;
  /** the window's bytes in base64 (two thirds of bytea's hex: the page's rows are most of a search's answer) */
  window: string;
  partial: boolean;
  /** a paged text's page starts (pages.ts), else null */
  page_starts: Buffer | null;
  /** how many of the content's first bytes a snippet may show */
  shown: number;
}

/** The columns of windows(), for the runner (PostgresSearchIndex.run). */
const WINDOW_COLUMNS =
  'id float8, title bytea, description bytea, size int, at int, start int, "window" text, partial boolean, page_starts bytea, shown int';

export function hitText(row: WindowRow): HitText {
  return {
    id: row.id,
    title: row.title.toString('utf8'),
    description: row.description === null ? null : row.description.toString('utf8'),
    size: row.size,
    at: row.at,
    start: row.start,
    window: Buffer.from(row.window, 'base64'),
    pageStarts: row.page_starts,
    shown: row.shown,
  };
}

/** Runs a statement of parameters `$1[n]` on the server, with the settings of a search (PostgresSearchIndex.run). */
export type Runner = <Row>(statement: Statement & { sql: string; columns: string }) => Promise<Row[]>;

export class PostgresStoredTexts implements HitTextSource {
  private readonly table: string;
  private readonly heads: string;

  constructor(
    private readonly db: Executor,
    collection: string,
    private readonly run: Runner,
  ) {
    this.table = `search_${collection}_text`;
    this.heads = `search_${collection}_text_head`;
  }

  /** The statements that create the tables. */
  get creation(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
        id bigint PRIMARY KEY,
        title bytea NOT NULL,
        keywords bytea NOT NULL,
        description bytea NOT NULL,
        content bytea NOT NULL,
        page_starts bytea,
        shown_bytes integer
      )`,
      `ALTER TABLE ${this.table} ALTER COLUMN content SET STORAGE EXTERNAL`,
      `CREATE TABLE IF NOT EXISTS ${this.heads} (
        id bigint PRIMARY KEY,
        head bytea NOT NULL,
        size integer NOT NULL
      )`,
      `ALTER TABLE ${this.heads} ALTER COLUMN head SET STORAGE EXTERNAL`,
    ];
  }

  async put(db: Executor, texts: readonly StoredText[]): Promise<void> {
    if (texts.length === 0) return;
    const ids = texts.map((text) => text.id);
    const bytes = (name: 'title' | 'keywords' | 'description' | 'content') =>
      texts.map((text) => Buffer.from(text[name]));
    await rowsOf(
      db,
      `INSERT INTO ${this.table} (id, title, keywords, description, content, page_starts, shown_bytes)
        SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::bytea[], $4::bytea[], $5::bytea[], $6::bytea[], $7::int[])
        ON CONFLICT (id) DO UPDATE SET title = excluded.title, keywords = excluded.keywords, description = excluded.description, content = excluded.content,
          page_starts = excluded.page_starts, shown_bytes = excluded.shown_bytes`,
      [
        ids,
        bytes('title'),
        bytes('keywords'),
        bytes('description'),
        bytes('content'),
        texts.map((text) => text.pageStarts ?? null),
        texts.map((text) => text.shownBytes ?? null),
      ],
    );
    const heads = texts.flatMap((text) => {
      const head = headOf(text.content);
      return head ? [{ id: text.id, ...head }] : [];
    });
    await rowsOf(db, `DELETE FROM ${this.heads} WHERE id = ANY($1::bigint[])`, [ids]);
    if (heads.length > 0) {
      await rowsOf(
        db,
        `INSERT INTO ${this.heads} (id, head, size) SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::int[])`,
        [heads.map((head) => head.id), heads.map((head) => head.head), heads.map((head) => head.size)],
      );
    }
  }

  async remove(db: Executor, ids: readonly number[]): Promise<void> {
    for (const table of [this.table, this.heads])
      await rowsOf(db, `DELETE FROM ${table} WHERE id = ANY($1::bigint[])`, [ids]);
  }

  async clear(db: Executor): Promise<void> {
    await rowsOf(db, `TRUNCATE ${this.table}, ${this.heads}`);
  }

  /** The first `count` stored texts whose id is above `after`, in id order. */
  async batchAfter(db: Executor, after: number, count: number): Promise<StoredText[]> {
    const rows = await rowsOf<StoredRow>(
      db,
      `SELECT id::float8 AS id, title, keywords, description, content FROM ${this.table} WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, Math.trunc(count)],
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title.toString('utf8'),
      keywords: row.keywords.toString('utf8'),
      description: row.description.toString('utf8'),
      content: row.content.toString('utf8'),
    }));
  }

  /** As StoredTexts.hitTexts: a window of `reach` bytes around the first needle; a long text's head first. */
  async hitTexts(ids: number[], needles: Buffer[], reach: number): Promise<Map<number, HitText>> {
    return this.completed(await this.windowRows(ids, needles, reach, 'heads'), needles, reach);
  }

  /** A source of the hits' texts whose windows in the heads came with the search's own statement. */
  prefetched(rows: readonly WindowRow[]): HitTextSource {
    return {
      hitTexts: (_ids, needles, reach) => this.completed(rows, needles, reach),
      column: (id, name) => this.column(id, name),
      leadingBytes: (id, count) => this.leadingBytes(id, count),
      contents: (ids) => this.contents(ids),
    };
  }

  /** The windows of the heads, those of the long texts whose head holds no needle looked for in the whole text. */
  private async completed(
    fromHeads: readonly WindowRow[],
    needles: Buffer[],
    reach: number,
  ): Promise<Map<number, HitText>> {
    const texts = new Map<number, HitText>(fromHeads.map((row) => [row.id, hitText(row)]));
    const further =
      needles.length === 0 ? [] : fromHeads.filter((row) => row.partial && row.at < 0).map((row) => row.id);
    if (further.length > 0)
      for (const row of await this.windowRows(further, needles, reach, 'whole')) texts.set(row.id, hitText(row));
    return texts;
  }

  private async windowRows(
    ids: number[],
    needles: Buffer[],
    reach: number,
    source: 'heads' | 'whole',
  ): Promise<WindowRow[]> {
    const statement = new Statement();
    const idList = statement.bind(ids, 'bigint[]');
    const needleList = statement.bind(
      needles.map((needle) => needle.toString('utf8')),
      'text[]',
    );
    return this.run<WindowRow>(
      Object.assign(statement, {
        sql: this.windows(`SELECT unnest(${idList})`, needleList, reach, source),
        columns: WINDOW_COLUMNS,
      }),
    );
  }

  /**
   * The SQL of the windows of some texts (`ids`: the SQL of a set of ids): `reach` bytes on
   * each side of the first occurrence of any needle (`needles`: the SQL of a text array, each
   * looked for as UTF-8), or the first `reach` bytes when none is there; from a long text's
   * head, or from the whole text.
   */
  windows(ids: string, needles: string, reach: number, source: 'heads' | 'whole'): string {
    const found = `(SELECT min(nullif(position(convert_to(n, 'UTF8') IN x.c), 0)) FROM unnest(${needles}) AS n)`;
    // The text is read once: `|| ''` makes the (detoasted) copy that the steps below share.
    const texts =
      source === 'heads'
        ? `SELECT t.id, t.title, t.description, t.page_starts, coalesce(t.shown_bytes, 0) AS shown, x.c, coalesce(h.size, octet_length(x.c)) AS size, h.id IS NOT NULL AS partial, ${found} AS first_at
            FROM ${this.table} AS t LEFT JOIN ${this.heads} AS h ON h.id = t.id
            CROSS JOIN LATERAL (SELECT coalesce(h.head, t.content) || ''::bytea AS c OFFSET 0) AS x
            WHERE t.id IN (${ids})`
        : `SELECT t.id, t.title, t.description, t.page_starts, coalesce(t.shown_bytes, 0) AS shown, x.c, octet_length(x.c) AS size, false AS partial, ${found} AS first_at
            FROM ${this.table} AS t CROSS JOIN LATERAL (SELECT t.content || ''::bytea AS c OFFSET 0) AS x
            WHERE t.id IN (${ids})`;
    return `SELECT id::float8 AS id, title, CASE WHEN at < 0 OR at >= shown THEN description END AS description, size, at, greatest(0, at - ${reach}) AS start,
        encode(substring(c FROM greatest(0, at - ${reach}) + 1 FOR CASE WHEN at < 0 THEN ${reach} ELSE at + ${reach} - greatest(0, at - ${reach}) END), 'base64') AS window,
        partial, page_starts, shown
      FROM (SELECT id, title, description, page_starts, shown, c, size, partial, coalesce(first_at, 0) - 1 AS at FROM (${texts} OFFSET 0) AS a OFFSET 0) AS b`;
  }

  /** Whether a text stored before the index kept what its snippets may show is still there. */
  async anyWithoutShownPart(): Promise<boolean> {
    return (await rowsOf(this.db, `SELECT 1 FROM ${this.table} WHERE shown_bytes IS NULL LIMIT 1`)).length > 0;
  }

  /** The statement that adds the column of what a snippet may show to a table made before it, when it lacks it. */
  async addShownColumn(db: Executor): Promise<void> {
    const [row] = await rowsOf<{ missing: boolean }>(
      db,
      `SELECT NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'shown_bytes') AS missing`,
      [this.table],
    );
    // Its texts show nothing (NULL) until upserted again.
    if (row?.missing) await rowsOf(db, `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS shown_bytes integer`);
  }

  async column(id: number, name: 'description' | 'content'): Promise<string> {
    const [row] = await rowsOf<{ value: Buffer }>(this.db, `SELECT ${name} AS value FROM ${this.table} WHERE id = $1`, [
      id,
    ]);
    return row?.value.toString('utf8') ?? '';
  }

  async contents(ids: number[]): Promise<Map<number, Buffer>> {
    const rows = await rowsOf<{ id: number; content: Buffer }>(
      this.db,
      `SELECT id::float8 AS id, content FROM ${this.table} WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.content]));
  }

  async leadingBytes(id: number, count: number): Promise<Buffer> {
    const [row] = await rowsOf<{ bytes: Buffer }>(
      this.db,
      `SELECT substring(coalesce(h.head, t.content) FROM 1 FOR $2) AS bytes FROM ${this.table} AS t LEFT JOIN ${this.heads} AS h ON h.id = t.id WHERE t.id = $1`,
      [id, Math.trunc(count)],
    );
    return row?.bytes ?? Buffer.alloc(0);
  }
}
