// Benchmark 6 of `npm run bench` (`--only=search`): the embedded search engine against
// MOREDOC's search (LIKE over title, keywords and description) on the same generated library,
// in the same SQLite file, in this process. Ours also searches the full text and makes the
// snippets of the first page; LIKE never sees the text. Then the PostgreSQL engine on the same
// library, on a PostgreSQL of its own (tests/helpers/postgres.ts, or TEST_POSTGRES_URL),
// interleaved with the other two: its hits against FTS5's, its times against FTS5's.
// --search-pin: this process on CPU 0, the PostgreSQL server (every process of it) on CPU 1;
// --search-socket: the PostgreSQL engine over the server's Unix socket instead of loopback TCP.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../backend/db';
import { PostgresSearchIndex } from '../backend/platform/search/postgres-search-index';
import type { SearchQuery, SearchResult } from '../backend/platform/search/search-index';
import { SqliteSearchIndex } from '../backend/platform/search/sqlite-search-index';
import { createDatabase, databaseUrl, postgresMissing, startPostgresCluster } from '../tests/helpers/postgres';
import { cpusOf, cpusOfThreads, pinToCpus } from './lib/cpus';
import { REPO_ROOT, withChildren } from './lib/processes';
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
  /**
   * this process (FTS5, LIKE, the pg client) on CPU 0, every process of the PostgreSQL server on
   * CPU 1, as a deployment gives its database cores of its own (--search-pin)
   */
  pin?: boolean;
  /** the PostgreSQL engine's connections over the server's Unix socket, not loopback TCP (--search-socket) */
  socket?: boolean;
}

/** The CPU of this process and of the PostgreSQL server under --search-pin (taskset lists). */
const PIN = { node: '0', postgres: '1' };

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

/**
 * Lets the event loop run what is pending before a call is timed. V8 asks for its young
 * generation's collection (a scavenge, 2–7 ms here) as a task once the nursery is nearly full; a
 * task runs at the event loop's next turn, and in the rounds the only turns are the waits for
 * PostgreSQL's answers: every scavenge, of garbage that FTS5, LIKE and PostgreSQL made alike, fell
 * in a PostgreSQL call's time. A collection that a call's own allocation forces stays in its time.
 */
async function settle(): Promise<void> {
  // Two turns: a task posted in this turn is run in the next turn's poll phase.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

async function timedAsync<T>(run: () => Promise<T>): Promise<[T, number]> {
  await settle();
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

/** A timed call: when it started and how long it took (performance.now(), ms). */
interface Span {
  start: number;
  ms: number;
}

/**
 * Of the slowest 1 % of `spans` (those at or above the p99), how many overlapped one of this
 * process's GC pauses.
 */
function slowestDuringGc(spans: Span[], gcs: Span[]): string {
  const p99 = percentile(
    spans.map((span) => span.ms),
    99,
  );
  const slowest = spans.filter((span) => span.ms >= p99);
  const overlapping = slowest.filter((span) =>
    gcs.some((gc) => gc.start < span.start + span.ms && span.start < gc.start + gc.ms),
  );
  return `${overlapping.length} of ${slowest.length}`;
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
  /** the server's processes now (postmaster first, then its children), when it runs here */
  serverPids(): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * The server of a cluster on this machine: its postmaster's process id (from its data folder's
 * postmaster.pid), the folder of its Unix socket and its port.
 */
async function localServer(clusterUrl: string): Promise<{ postmaster: number; socketDir: string; port: number }> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ data: string; sockets: string; port: string }>(
      `SELECT current_setting('data_directory') AS data, current_setting('unix_socket_directories') AS sockets,
        current_setting('port') AS port`,
    );
    const { data, sockets, port } = rows[0]!;
    return {
      postmaster: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]),
      socketDir: sockets.split(',')[0]!.trim(),
      port: Number(port),
    };
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL engine on a database of its own (in a cluster kept in `keepIn` when given),
 * its server pinned to PIN.postgres when `pin`; null (said why) when PostgreSQL is missing here.
 */
async function openPostgres(
  keepIn: string | undefined,
  { pin, socket }: { pin: boolean; socket: boolean },
): Promise<PostgresEngine | null> {
  const missing = postgresMissing();
  if (missing) {
    console.log(`PostgreSQL engine: not measured, ${missing}.\n`);
    return null;
  }
  if ((pin || socket) && process.env.TEST_POSTGRES_URL)
    throw new Error(
      '--search-pin and --search-socket need the PostgreSQL the benchmark starts: unset TEST_POSTGRES_URL',
    );
  const cluster = await startPostgresCluster(keepIn === undefined ? {} : { keepIn });
  const server = process.env.TEST_POSTGRES_URL ? undefined : await localServer(cluster.url);
  // The postmaster and the children it has (checkpointer, writers, launchers); the backends and
  // workers it starts later inherit its CPU.
  if (pin) pinToCpus(await withChildren(server!.postmaster), PIN.postgres);
  const url =
    keepIn === undefined
      ? await createDatabase(cluster.url)
      : existsSync(join(keepIn, 'database'))
        ? databaseUrl(cluster.url, 'search_bench')
        : await createDatabase(cluster.url, 'search_bench');
  if (keepIn !== undefined) await writeFile(join(keepIn, 'database'), 'search_bench\n');
  // The cluster's Unix socket (trusted: no password) instead of loopback TCP with --search-socket.
  const pool = new pg.Pool(
    socket
      ? {
          host: server!.socketDir,
          port: server!.port,
          user: 'postgres',
          database: decodeURIComponent(new URL(url).pathname.slice(1)),
          max: 4,
        }
      : { connectionString: url, max: 4 },
  );
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
    serverPids: async () => (server === undefined ? [] : withChildren(server.postmaster)),
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

/** The CPUs of each process, `cpu 1 × 7` when all their threads share one list. */
function cpusOfAll(pids: number[]): string {
  const counts = new Map<string, number>();
  for (const pid of pids) {
    let lists: string[];
    try {
      lists = cpusOfThreads(pid);
    } catch {
      continue; // ended meanwhile
    }
    const key = lists.join(' and ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([list, count]) => `CPU ${list} × ${count}`).join(', ');
}

/** The first figure of the load average, two decimals. */
const load1 = () => loadavg()[0]!.toFixed(2);

export async function searchBenchmark(settings: SearchBenchmarkSettings): Promise<void> {
  heading('6. Search');
  const cpusBefore = cpusOf(process.pid);
  if (settings.pin) pinToCpus([process.pid], PIN.node);
  try {
    await measureSearch(settings);
  } finally {
    if (settings.pin) pinToCpus([process.pid], cpusBefore);
  }
}

async function measureSearch(settings: SearchBenchmarkSettings): Promise<void> {
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
  const postgres = await openPostgres(kept && join(kept, 'postgres'), {
    pin: settings.pin ?? false,
    socket: settings.socket ?? false,
  });
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
    const ourSpans: Span[] = [];
    const likeSamples: number[] = [];
    const postgresSpans: Span[] = [];
    const roundTripSpans: Span[] = [];
    const perQuery = new Map(
      QUERIES.map((query) => [query, { ours: [] as number[], like: [] as number[], postgres: [] as number[] }]),
    );
    if (postgres) for (const query of QUERIES) await onPostgres({ text: query });
    const span = async (run: () => Promise<unknown>): Promise<Span> => {
      await settle();
      const start = performance.now();
      await run();
      return { start, ms: performance.now() - start };
    };
    // This process's GC pauses during the rounds: a pause inside a timed call is in its time.
    const gcs: Span[] = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, ms: entry.duration });
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    const loadBefore = load1();
    for (let round = 1; round <= settings.rounds; round++) {
      process.stderr.write(`  round ${round}/${settings.rounds} …\n`);
      for (const query of QUERIES) {
        const ourSpan = await span(() => ours({ text: query }));
        const [, likeMs] = timed(() => like(query));
        ourSpans.push(ourSpan);
        likeSamples.push(likeMs);
        perQuery.get(query)!.ours.push(ourSpan.ms);
        perQuery.get(query)!.like.push(likeMs);
        if (postgres) {
          const postgresSpan = await span(() => onPostgres({ text: query }));
          postgresSpans.push(postgresSpan);
          perQuery.get(query)!.postgres.push(postgresSpan.ms);
          // The floor, as each search above meets it: a round trip after a LIKE scan (untimed here).
          like(query);
          roundTripSpans.push(await span(() => postgres.roundTrip()));
        }
      }
    }
    const loadAfter = load1();
    // GC entries are delivered after the fact: let the last ones in before reading them.
    await new Promise((resolve) => setImmediate(resolve));
    gcObserver.disconnect();
    const ourSamples = ourSpans.map((s) => s.ms);
    const postgresSamples = postgresSpans.map((s) => s.ms);
    const roundTripSamples = roundTripSpans.map((s) => s.ms);
    // Where each process ran (--search-pin), checked after the rounds: every thread of this
    // process, every process of the server (the pool's backends among them).
    const placement = settings.pin
      ? `pinned (--search-pin): this process ${cpusOfAll([process.pid])}; the PostgreSQL server ${postgres ? cpusOfAll(await postgres.serverPids()) : 'not run'} (every thread, after the rounds)`
      : 'not pinned';
    const transport = settings.socket ? "PostgreSQL over the server's Unix socket" : 'PostgreSQL over loopback TCP';
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
      `\n- ours ÷ LIKE: p50 **${ratio(ourP50, likeP50)}**, p99 **${ratio(ourP99, likeP99)}** (goal ≤ 0.05×); ours p99 ${ms(ourP99)} ms (goal ≤ 20 ms)`,
    );
    console.log(
      `- ${placement}; ${transport}; load average ${loadBefore} before the rounds, ${loadAfter} after; ` +
        `this process's GC during the rounds: ${gcs.length} pause(s), ${ms(gcs.reduce((sum, gc) => sum + gc.ms, 0))} ms in all, ` +
        `longest ${ms(Math.max(0, ...gcs.map((gc) => gc.ms)))} ms; of the searches at or above the p99, during a GC: FTS5 ${slowestDuringGc(ourSpans, gcs)}` +
        (postgres
          ? `, PostgreSQL ${slowestDuringGc(postgresSpans, gcs)}, \`SELECT 1\` ${slowestDuringGc(roundTripSpans, gcs)}`
          : '') +
        '\n',
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
