// Benchmark 6 of `npm run bench` (`--only=search`): the embedded search engine against
// MOREDOC's search (LIKE over title, keywords and description) on the same generated library,
// in the same SQLite file, in this process. Ours also searches the full text and makes the
// snippets of the first page; LIKE never sees the text. Then the PostgreSQL engine on the same
// library, on a PostgreSQL of its own (tests/helpers/postgres.ts, or TEST_POSTGRES_URL),
// interleaved with the other two: its hits against FTS5's, its times against FTS5's.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../backend/db';
import { PostgresSearchIndex } from '../backend/platform/search/postgres-search-index';
import type { SearchQuery, SearchResult } from '../backend/platform/search/search-index';
import { SqliteSearchIndex } from '../backend/platform/search/sqlite-search-index';
import { createDatabase, databaseUrl, postgresMissing, startPostgresCluster } from '../tests/helpers/postgres';
import { REPO_ROOT } from './lib/processes';
import { ChineseCorpus, TOPICS, searchAttributes, type GeneratedDocument } from './lib/chinese-corpus';
import { SEARCH_CORPUS_SEED, SEARCH_QUERIES as QUERIES, SEARCH_VARIANTS as VARIANTS } from './lib/search-queries';
import { heading, int, mib, ms, ratio, table } from './lib/report';

export interface SearchBenchmarkSettings {
  /** documents in the library */
  documents: number;
  /** characters of text per document */
  length: number;
  /** measured passes over the queries */
  rounds: number;
  /** keep the indexed library under .tmp/ and reuse it in the next run of the same size (--search-keep) */
  keep?: boolean;
}

const SEED = SEARCH_CORPUS_SEED;
const BATCH = 250;
const PAGE_SIZE = 10;
// MOREDOC's default cap on a search's total: display.max_search_pages (100) × 10.
const MAX_TOTAL = 1000;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function timed<T>(run: () => T): [T, number] {
  const started = performance.now();
  const result = run();
  return [result, performance.now() - started];
}

async function timedAsync<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

const BOOKS = 30;
const BOOK_LENGTH = 300_000;
const LAST_WORDS = '量子纠缠实验';

/**
 * Snippets of long texts: 30 books of 300,000 characters (about 880 KiB of UTF-8 each), 20 of
 * them ending with a phrase found nowhere else. A common word is in every book's first lines
 * (its snippet comes from the book's head, stored-texts.ts); the phrase makes the engine read the
 * ten books it shows whole.
 */
async function longTexts(sqlite: ConstructorParameters<typeof SqliteSearchIndex>[0], rounds: number): Promise<void> {
  // The same database, the collection the documents' index leaves unused.
  const books = new SqliteSearchIndex(sqlite, 'article');
  const corpus = new ChineseCorpus(SEED + 1);
  for (let id = 1; id <= BOOKS; id++) {
    const d = corpus.document(id, BOOK_LENGTH);
    const content = id <= 20 ? `${d.content}${LAST_WORDS}` : d.content;
    await books.upsert([
      {
        id,
        title: d.title,
        keywords: d.keywords,
        description: d.description,
        content,
        attributes: { createdAt: d.createdAt },
      },
    ]);
  }
  await books.optimize();
  const rows: (string | number)[][] = [];
  for (const [label, text] of [
    ["`我们` (in every book's first lines)", '我们'],
    [`\`${LAST_WORDS.slice(0, 4)}\` (only at the end of 20 books)`, LAST_WORDS.slice(0, 4)],
  ] as const) {
    const samples: number[] = [];
    let total = 0;
    for (let round = 0; round <= rounds; round++) {
      const [result, took] = await timedAsync(() => books.search({ text, size: PAGE_SIZE, maxTotal: MAX_TOTAL }));
      total = result.total;
      if (round > 0) samples.push(took);
    }
    rows.push([label, int(total), ms(percentile(samples, 50)), ms(percentile(samples, 99))]);
  }
  console.log(`
Long texts: ${BOOKS} books of ${int(BOOK_LENGTH)} characters, the first page of ${PAGE_SIZE} with its snippets (${rounds} runs each):\n`);
  console.log(table(['query', 'hits', 'p50 ms', 'p99 ms'], rows));
}

interface PostgresEngine {
  index: PostgresSearchIndex;
  /** a `SELECT 1` through the same pool: the round trip every search pays (FTS5 pays none) */
  roundTrip(): Promise<unknown>;
  /** bytes of each of the engine's tables, indexes and TOAST with it */
  sizes(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/**
 * The PostgreSQL engine on a database of its own (in a cluster kept in `keepIn` when given);
 * null (said why) when PostgreSQL is missing here.
 */
async function openPostgres(keepIn: string | undefined): Promise<PostgresEngine | null> {
  const missing = postgresMissing();
  if (missing) {
    console.log(`PostgreSQL engine: not measured, ${missing}.\n`);
    return null;
  }
  const cluster = await startPostgresCluster(keepIn === undefined ? {} : { keepIn });
  const url =
    keepIn === undefined
      ? await createDatabase(cluster.url)
      : existsSync(join(keepIn, 'database'))
        ? databaseUrl(cluster.url, 'search_bench')
        : await createDatabase(cluster.url, 'search_bench');
  if (keepIn !== undefined) await writeFile(join(keepIn, 'database'), 'search_bench\n');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // A connection still closing when the cluster stops hears its "terminating connection" (57P01).
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') throw error;
  });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return {
    index: new PostgresSearchIndex(db, 'document'),
    roundTrip: () => db.executeQuery(CompiledQuery.raw('SELECT 1')),
    async sizes() {
      const { rows } = await db.executeQuery<{ name: string; bytes: string }>(
        CompiledQuery.raw(
          `SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relkind = 'r' AND relname LIKE 'search\\_document%'`,
        ),
      );
      return new Map(rows.map((row) => [row.name, Number(row.bytes)]));
    },
    async close() {
      await db.destroy();
      await cluster.stop();
    },
  };
}

/** Whether two answers are the same: total, and each hit's id, score, snippet and title. */
function sameAnswer(a: SearchResult, b: SearchResult): boolean {
  const strip = (result: SearchResult) => JSON.stringify({ total: result.total, hits: result.hits });
  return strip(a) === strip(b);
}

export async function searchBenchmark(settings: SearchBenchmarkSettings): Promise<void> {
  heading('6. Search');
  // --search-keep: the library of this size indexed once, in .tmp/, its build figures with it.
  const kept = settings.keep
    ? join(REPO_ROOT, '.tmp', `search-bench-${settings.documents}x${settings.length}`)
    : undefined;
  const dir = kept ? join(kept, 'sqlite') : await mkdtemp(join(tmpdir(), 'moredoc-search-bench-'));
  await mkdir(dir, { recursive: true });
  const builtFile = kept && join(kept, 'built.json');
  const reused =
    builtFile && existsSync(builtFile) ? (JSON.parse(await readFile(builtFile, 'utf8')) as Built) : undefined;
  if (kept && !reused) await rm(kept, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { db, sqlite } = await openDatabase(dir);
  const postgres = await openPostgres(kept && join(kept, 'postgres'));
  try {
    const corpus = new ChineseCorpus(SEED);
    const index = new SqliteSearchIndex(sqlite, 'document');
    const insertDocument = sqlite.prepare(`INSERT INTO document
      (id, title, keywords, description, uuid, ext, status, view_count, download_count, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 2, ?, ?, ?, ?)`);
    const fillTable = sqlite.transaction((documents: GeneratedDocument[]) => {
      for (const d of documents)
        insertDocument.run(
          d.id,
          d.title,
          d.keywords,
          d.description,
          `bench-${d.id}`,
          d.ext,
          d.viewCount,
          d.downloadCount,
          d.createdAt,
          d.createdAt,
        );
    });

    const built: Built = reused ?? {
      generateMs: 0,
      tableMs: 0,
      indexMs: 0,
      postgresIndexMs: 0,
      textBytes: 0,
      optimizeMs: 0,
      postgresOptimizeMs: 0,
    };
    if (reused) process.stderr.write(`  reusing the ${int(settings.documents)} documents indexed in ${kept} …\n`);
    else await build();
    async function build(): Promise<void> {
      process.stderr.write(`  generating and indexing ${int(settings.documents)} documents …\n`);
      for (let first = 1; first <= settings.documents; first += BATCH) {
        const count = Math.min(BATCH, settings.documents - first + 1);
        const [documents, generated] = timed(() =>
          Array.from({ length: count }, (_, i) => corpus.document(first + i, settings.length)),
        );
        built.generateMs += generated;
        for (const d of documents) built.textBytes += Buffer.byteLength(d.content);
        built.tableMs += timed(() => fillTable(documents))[1];
        const entries = documents.map((d) => ({
          id: d.id,
          title: d.title,
          keywords: d.keywords,
          description: d.description,
          content: d.content,
          attributes: searchAttributes(d),
        }));
        built.indexMs += (await timedAsync(() => index.upsert(entries)))[1];
        if (postgres) built.postgresIndexMs += (await timedAsync(() => postgres.index.upsert(entries)))[1];
      }
      built.optimizeMs = (await timedAsync(() => index.optimize()))[1];
      if (postgres) built.postgresOptimizeMs = (await timedAsync(() => postgres.index.optimize()))[1];
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      if (builtFile) await writeFile(builtFile, JSON.stringify(built));
    }
    const { generateMs, tableMs, indexMs, postgresIndexMs, textBytes, optimizeMs, postgresOptimizeMs } = built;

    const pages = sqlite.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[];
    const bytesOf = (test: (name: string) => boolean) =>
      pages.filter((page) => test(page.name)).reduce((sum, page) => sum + page.bytes, 0);
    const ftsBytes = bytesOf((name) => /^search_document_(head_|summary_)?fts/.test(name));
    const valueBytes = bytesOf((name) => name === 'search_document' || name.startsWith('search_document_category'));
    const storedTextBytes = bytesOf((name) => name === 'search_document_text' || name === 'search_document_text_head');
    const documentBytes = bytesOf(
      (name) => name === 'document' || name === 'sqlite_autoindex_document_1' || name === 'document_user',
    );
    const fileBytes = (await stat(join(dir, 'moredoc.db'))).size;

    // MOREDOC's SearchDocument: every word OR-ed as LIKE on three columns, total and one page.
    const likeWhere = 'deleted_at IS NULL AND (title LIKE ? OR keywords LIKE ? OR description LIKE ?)';
    const likeCount = sqlite.prepare(`SELECT count(*) AS n FROM document WHERE ${likeWhere}`);
    const likePage = sqlite.prepare(
      `SELECT id, title, keywords, description FROM document WHERE ${likeWhere} ORDER BY id DESC LIMIT ${PAGE_SIZE} OFFSET 0`,
    );
    const like = (word: string) => {
      const pattern = [`%${word}%`, `%${word}%`, `%${word}%`];
      const total = (likeCount.get(...pattern) as { n: number }).n;
      likePage.all(...pattern);
      return total;
    };
    const ours = (query: SearchQuery) => index.search({ size: PAGE_SIZE, maxTotal: MAX_TOTAL, ...query });
    const onPostgres = (query: SearchQuery) =>
      postgres!.index.search({ size: PAGE_SIZE, maxTotal: MAX_TOTAL, ...query });
    // The PostgreSQL engine's answers against FTS5's: the same total, hits, scores, snippets and titles.
    const agreeing = new Set<string>();
    if (postgres) {
      for (const query of [...QUERIES.map((text) => ({ text })), ...VARIANTS.map((variant) => variant.query)]) {
        if (sameAnswer(await ours(query), await onPostgres(query))) agreeing.add(JSON.stringify(query));
      }
    }

    const hits = new Map<string, { ours: number; like: number; snippet: string }>();
    for (const query of QUERIES) {
      const result = await index.search({ text: query, size: PAGE_SIZE });
      hits.set(query, { ours: result.total, like: like(query), snippet: result.hits[0]?.snippet ?? '' });
    }
    const ourSamples: number[] = [];
    const likeSamples: number[] = [];
    const postgresSamples: number[] = [];
    const roundTripSamples: number[] = [];
    const perQuery = new Map(
      QUERIES.map((query) => [query, { ours: [] as number[], like: [] as number[], postgres: [] as number[] }]),
    );
    if (postgres) for (const query of QUERIES) await onPostgres({ text: query });
    for (let round = 1; round <= settings.rounds; round++) {
      process.stderr.write(`  round ${round}/${settings.rounds} …\n`);
      for (const query of QUERIES) {
        const [, ourMs] = await timedAsync(() => ours({ text: query }));
        const [, likeMs] = timed(() => like(query));
        ourSamples.push(ourMs);
        likeSamples.push(likeMs);
        perQuery.get(query)!.ours.push(ourMs);
        perQuery.get(query)!.like.push(likeMs);
        if (postgres) {
          const [, postgresMs] = await timedAsync(() => onPostgres({ text: query }));
          postgresSamples.push(postgresMs);
          perQuery.get(query)!.postgres.push(postgresMs);
          // The floor, as each search above meets it: a round trip after a LIKE scan (untimed here).
          like(query);
          roundTripSamples.push((await timedAsync(() => postgres.roundTrip()))[1]);
        }
      }
    }
    const variantRows: (string | number)[][] = [];
    for (const variant of VARIANTS) {
      const samples: number[] = [];
      const postgresVariantSamples: number[] = [];
      for (let round = 0; round <= settings.rounds; round++) {
        const [, took] = await timedAsync(() => ours(variant.query));
        if (round > 0) samples.push(took);
        if (!postgres) continue;
        const [, postgresTook] = await timedAsync(() => onPostgres(variant.query));
        if (round > 0) postgresVariantSamples.push(postgresTook);
      }
      const { total } = await index.search({ ...variant.query, size: PAGE_SIZE });
      const postgresFigures = postgres
        ? [
            ms(percentile(postgresVariantSamples, 50)),
            ms(percentile(postgresVariantSamples, 99)),
            agreeing.has(JSON.stringify(variant.query)) ? 'yes' : '**no**',
          ]
        : [];
      variantRows.push([
        variant.label,
        int(total),
        ms(percentile(samples, 50)),
        ms(percentile(samples, 99)),
        ...postgresFigures,
      ]);
    }

    const [ourP50, ourP99, likeP50, likeP99] = [
      percentile(ourSamples, 50),
      percentile(ourSamples, 99),
      percentile(likeSamples, 50),
      percentile(likeSamples, 99),
    ];
    console.log(
      `${int(settings.documents)} generated documents of ${int(settings.length)} characters (words drawn by their frequency in jieba's dictionary, ` +
        `${TOPICS} topics), ${QUERIES.length} queries of 2–6 characters, ${settings.rounds} interleaved rounds; a search is the total plus the first ` +
        `page of ${PAGE_SIZE}: ours counting up to MOREDOC's cap of ${int(MAX_TOTAL)}, with titles highlighted and snippets cut from the text; ` +
        `MOREDOC's LIKE as it runs (count, then the page). Hits: every match.\n`,
    );
    console.log(
      table(
        ['engine', 'searches', 'p50 ms', 'p99 ms', 'max ms'],
        [
          [
            'ours · FTS5 bigrams, title + keywords + description + text',
            ourSamples.length,
            ms(ourP50),
            ms(ourP99),
            ms(Math.max(...ourSamples)),
          ],
          [
            'MOREDOC · LIKE on title, keywords, description',
            likeSamples.length,
            ms(likeP50),
            ms(likeP99),
            ms(Math.max(...likeSamples)),
          ],
        ],
      ),
    );
    console.log(
      `\n- ours ÷ LIKE: p50 **${ratio(ourP50, likeP50)}**, p99 **${ratio(ourP99, likeP99)}** (goal ≤ 0.05×); ours p99 ${ms(ourP99)} ms (goal ≤ 20 ms)\n`,
    );
    if (postgres) {
      const [postgresP50, postgresP99] = [percentile(postgresSamples, 50), percentile(postgresSamples, 99)];
      const same = QUERIES.filter((query) => agreeing.has(JSON.stringify({ text: query }))).length;
      console.log(
        table(
          ['engine', 'searches', 'p50 ms', 'p99 ms', 'max ms', 'same answers as FTS5'],
          [
            [
              'PostgreSQL · tsvector + GIN, the same tokens and bm25',
              postgresSamples.length,
              ms(postgresP50),
              ms(postgresP99),
              ms(Math.max(...postgresSamples)),
              `${same} of ${QUERIES.length}`,
            ],
            [
              'PostgreSQL · `SELECT 1`, the round trip alone (each after a LIKE scan)',
              roundTripSamples.length,
              ms(percentile(roundTripSamples, 50)),
              ms(percentile(roundTripSamples, 99)),
              ms(Math.max(...roundTripSamples)),
              '—',
            ],
          ],
        ),
      );
      console.log(
        `\n- PostgreSQL ÷ FTS5: p50 ${ratio(postgresP50, ourP50)}, p99 **${ratio(postgresP99, ourP99)}** (goal ≤ 2×); PostgreSQL p99 ${ms(postgresP99)} ms (goal ≤ 20 ms); ` +
          `same answers (total, hits, scores, snippets, titles): ${same} of the ${QUERIES.length} queries, ` +
          `${VARIANTS.filter((variant) => agreeing.has(JSON.stringify(variant.query))).length} of the ${VARIANTS.length} other shapes\n`,
      );
    }
    const postgresColumn = postgres ? ['PostgreSQL p50 ms'] : [];
    console.log(
      table(
        ['query', 'chars', 'ours: hits', 'LIKE: hits', 'ours p50 ms', 'LIKE p50 ms', ...postgresColumn],
        QUERIES.map((query) => [
          query,
          Array.from(query).length,
          int(hits.get(query)!.ours),
          int(hits.get(query)!.like),
          ms(percentile(perQuery.get(query)!.ours, 50)),
          ms(percentile(perQuery.get(query)!.like, 50)),
          ...(postgres ? [ms(percentile(perQuery.get(query)!.postgres, 50))] : []),
        ]),
      ),
    );
    console.log(`\nOther shapes of query (${settings.rounds} runs each):\n`);
    console.log(
      table(
        [
          'query',
          'hits',
          'p50 ms',
          'p99 ms',
          ...(postgres ? ['PostgreSQL p50 ms', 'PostgreSQL p99 ms', 'same answer'] : []),
        ],
        variantRows,
      ),
    );
    await longTexts(sqlite, settings.rounds);
    console.log(`\nA snippet (\`${QUERIES[6]}\`): \`${hits.get(QUERIES[6]!)!.snippet}\`\n`);
    console.log(
      table(
        ['size', 'MiB', 'per document KiB'],
        [
          ['text of the documents (UTF-8)', mib(textBytes), (textBytes / 1024 / settings.documents).toFixed(1)],
          [
            'FTS5 indexes (contentless; all columns, and the tiers)',
            mib(ftsBytes),
            (ftsBytes / 1024 / settings.documents).toFixed(1),
          ],
          ['filter and sort values, categories', mib(valueBytes), (valueBytes / 1024 / settings.documents).toFixed(1)],
          ['texts for the snippets', mib(storedTextBytes), (storedTextBytes / 1024 / settings.documents).toFixed(1)],
          [
            '`document` table (LIKE reference)',
            mib(documentBytes),
            (documentBytes / 1024 / settings.documents).toFixed(1),
          ],
          ['whole database file', mib(fileBytes), (fileBytes / 1024 / settings.documents).toFixed(1)],
        ],
      ),
    );
    console.log(
      `\n- building: generating ${(generateMs / 1000).toFixed(1)} s, \`document\` rows ${(tableMs / 1000).toFixed(1)} s, ` +
        `indexing ${(indexMs / 1000).toFixed(1)} s (${int((settings.documents * 1000) / indexMs)} documents/s, ${(textBytes / 1024 / 1024 / (indexMs / 1000)).toFixed(1)} MiB of text/s), ` +
        `optimize ${(optimizeMs / 1000).toFixed(1)} s`,
    );
    if (postgres) {
      const sizes = await postgres.sizes();
      const sum = (test: (name: string) => boolean) =>
        [...sizes].filter(([name]) => test(name)).reduce((total, [, bytes]) => total + bytes, 0);
      const tokenBytes = sum((name) => /^search_document_(head|summary|fts|fts_more|counts)$/.test(name));
      const postgresTextBytes = sum((name) => name.startsWith('search_document_text'));
      const allBytes = sum(() => true);
      console.log(`\nThe PostgreSQL engine's tables (with their indexes and TOAST):\n`);
      console.log(
        table(
          ['size', 'MiB', 'per document KiB'],
          [
            [
              'tsvectors and their GIN indexes (the tiers, every column, the counts)',
              mib(tokenBytes),
              (tokenBytes / 1024 / settings.documents).toFixed(1),
            ],
            [
              'texts for the snippets',
              mib(postgresTextBytes),
              (postgresTextBytes / 1024 / settings.documents).toFixed(1),
            ],
            ['all of its tables', mib(allBytes), (allBytes / 1024 / settings.documents).toFixed(1)],
          ],
        ),
      );
      console.log(
        `\n- building: indexing ${(postgresIndexMs / 1000).toFixed(1)} s (${int((settings.documents * 1000) / postgresIndexMs)} documents/s), ` +
          `VACUUM ANALYZE ${(postgresOptimizeMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await db.destroy();
    await postgres?.close();
    if (!kept) await rm(dir, { recursive: true, force: true });
  }
}

/** How the library was built: kept with it (--search-keep) for the report of a later run. */
interface Built {
  generateMs: number;
  tableMs: number;
  indexMs: number;
  postgresIndexMs: number;
  textBytes: number;
  optimizeMs: number;
  postgresOptimizeMs: number;
}
