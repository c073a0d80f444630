// `npm run bench`: the five benchmarks of the gateway, the conversion benchmark, the search
// benchmark and the reader benchmark, each against a reference measured in the same run
// (nginx, the upstream directly, the entry chunk, the idle process, mutool, MOREDOC's LIKE
// search) or known (MOREDOC's first paint of the document route), so that a figure means
// something on a noisy machine. Not part of `npm test`. Installs nothing: it says what is
// missing (nginx, wrk, mutool) and stops. Options: --duration, --warmup, --connections,
// --rounds, --positions-rounds, --memory-duration (seconds / count), --search-documents, --search-rounds,
// --search-keep, --search-pin, --search-socket, --api-rate, --reader-rounds, --first-paint-rounds, --find-requests, --crawler-renders,
// --only=proxy,pages,assets,bundle,memory,conversion,conversion-api,search,reader,first-paint,find,crawler.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  WrkRunner,
  runAtRate,
  type LoadSettings,
  type LoadTarget,
  type Measurement,
  type RequestSpec,
} from './lib/load';
import { startNginx, type NginxBinary, type RunningNginx } from './lib/nginx';
import { SiteClient } from './lib/site-client';
import { repeatedPdf } from '../tests/helpers/documents';
import { MissingTool, requireTools, type Tools } from './lib/tools';
import { REPO_ROOT, cpuTimeOfAll, memoryOf, startNodeProcess, withChildren, type Started } from './lib/processes';
import { heading, int, kib, machineDescription, mib, ms, ratio, table } from './lib/report';
import { routeWeights } from './lib/bundle';
import { publishDocuments } from './lib/site-content';
import { WEB_DIST, ensureWebBuild } from './lib/browser';
import { conversionBenchmark } from './conversion';
import { conversionApiBenchmark } from './conversion-api';
import { searchBenchmark } from './search';
import { readerBenchmark } from './reader';
import { firstPaintBenchmark } from './first-paint';
import { findBenchmark } from './find';
import { crawlerPagesBenchmark } from './crawler-pages';

const BENCHMARKS = [
  'proxy',
  'pages',
  'assets',
  'bundle',
  'memory',
  'conversion',
  'conversion-api',
  'search',
  'reader',
  'first-paint',
  'find',
  'crawler',
] as const;
/** Benchmarks that start their own servers, outside the gateway benchmarks' set. */
const STANDALONE: readonly Benchmark[] = ['conversion', 'conversion-api', 'reader', 'first-paint', 'find', 'crawler'];
type Benchmark = (typeof BENCHMARKS)[number];

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    'positions-rounds': { type: 'string', default: '9' },
    'memory-duration': { type: 'string', default: '60' },
    'search-documents': { type: 'string', default: '10000' },
    'search-rounds': { type: 'string', default: '15' },
    'search-keep': { type: 'boolean', default: false },
    'search-pin': { type: 'boolean', default: false },
    'search-socket': { type: 'boolean', default: false },
    'reader-rounds': { type: 'string', default: '7' },
    'api-rate': { type: 'string', default: '200' },
    'first-paint-rounds': { type: 'string', default: '5' },
    'find-requests': { type: 'string', default: '500' },
    'crawler-renders': { type: 'string', default: '200' },
    only: { type: 'string', default: BENCHMARKS.join(',') },
  },
});

const load: LoadSettings = {
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  connections: Number(args.connections),
};
const memoryDuration = Number(args['memory-duration']);
const rounds = Math.max(1, Number(args.rounds));
const selected = new Set(args.only.split(',').map((name) => name.trim()));
for (const name of selected) {
  if (!(BENCHMARKS as readonly string[]).includes(name))
    throw new Error(`--only: unknown benchmark "${name}" (known: ${BENCHMARKS.join(', ')})`);
}
const wants = (name: Benchmark) => selected.has(name);
const searchSettings = {
  documents: Number(args['search-documents']),
  length: 5000,
  rounds: Math.max(1, Number(args['search-rounds'])),
  keep: args['search-keep'],
  pin: args['search-pin'],
  socket: args['search-socket'],
};

const ADMIN_PASSWORD = 'bench-admin-password';
const PAGE_HASH = '0123456789abcdef0123456789abcdef';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
/** What Chromium sends with a navigation: the gateway answers its pages compressed to it. */
const BROWSER = { ...HTML, 'accept-encoding': 'gzip, deflate, br, zstd' };
const GZIP = { 'accept-encoding': 'gzip' };

interface Probe {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One GET as a client sends it, nothing decompressed, to check a target before loading it. */
function probe(url: string, headers: Record<string, string> = {}): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(`check failed before measuring: ${what}`);
}

/** One run, with the CPU time its server spent per request when the server is known. */
interface Run extends Measurement {
  /** microseconds, NaN when not measured */
  cpuPerRequest: number;
}

/** The median of each figure over the rounds, and the spread of req/s. */
interface Summary extends Run {
  minRps: number;
  maxRps: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarize(runs: Run[]): Summary {
  const of = (pick: (m: Run) => number) => median(runs.map(pick));
  return {
    cpuPerRequest: of((m) => m.cpuPerRequest),
    rps: of((m) => m.rps),
    p50: of((m) => m.p50),
    p97_5: of((m) => m.p97_5),
    p99: of((m) => m.p99),
    max: Math.max(...runs.map((m) => m.max)),
    requests: runs.reduce((sum, m) => sum + m.requests, 0),
    failures: runs.reduce((sum, m) => sum + m.failures, 0),
    minRps: Math.min(...runs.map((m) => m.rps)),
    maxRps: Math.max(...runs.map((m) => m.rps)),
  };
}

function measurementRow(label: string, m: Summary): (string | number)[] {
  const spread = m.maxRps > m.minRps ? `${int(m.minRps)}–${int(m.maxRps)}` : '';
  const cpu = Number.isNaN(m.cpuPerRequest) ? '—' : int(m.cpuPerRequest);
  return [
    label,
    int(m.rps),
    spread,
    ms(m.p50),
    ms(m.p97_5),
    ms(m.p99),
    cpu,
    m.failures === 0 ? '0' : `${int(m.failures)} ⚠`,
  ];
}

const MEASUREMENT_HEADERS = [
  'target',
  'req/s',
  'req/s range',
  'p50 ms',
  'p97.5 ms',
  'p99 ms',
  'CPU µs/req',
  'failures',
];

let wrk: WrkRunner;
// autocannon paces each connection at rate ÷ connections: few connections keep the total rate true.
const PACED_CONNECTIONS = 10;

/** A server measured: where it listens, and the processes whose CPU time it spends. */
interface Server {
  url: string;
  /** its process(es); nginx's master, whose worker is found among its children */
  pids: number[];
}

const serverOf = (started: { url: string; pid: number }): Server => ({ url: started.url, pids: [started.pid] });

interface Contender {
  label: string;
  target: LoadTarget;
  /** the server's processes (with their children): their CPU time per request is reported */
  pids?: number[];
}

/** A run of one contender, with its server's CPU time per request. */
async function measureRun(c: Contender, rate: number | undefined): Promise<Run> {
  const pids = (await Promise.all((c.pids ?? []).map(withChildren))).flat();
  const before = await cpuTimeOfAll(pids);
  const m = rate
    ? await runAtRate(c.target, PACED_CONNECTIONS, load.duration, rate)
    : await wrk.run(c.target, load.connections, load.duration);
  const cpu = (await cpuTimeOfAll(pids)) - before;
  return { ...m, cpuPerRequest: pids.length > 0 && m.requests > 0 ? cpu / m.requests : Number.NaN };
}

/**
 * Each contender is warmed up once, then measured in `rounds` interleaved rounds (A B C, A B C,
 * …), so that whatever else the machine does falls on all of them alike; the figures are the
 * medians. With `rate`, the runs are paced at that many requests per second (autocannon).
 */
async function compare(contenders: Contender[], rate?: number): Promise<Summary[]> {
  const warmConnections = Math.min(load.connections, 10);
  for (const c of contenders) {
    process.stderr.write(`  warming up ${c.label} …\n`);
    if (load.warmup > 0) {
      if (rate) await runAtRate(c.target, PACED_CONNECTIONS, load.warmup, rate);
      else await wrk.run(c.target, warmConnections, load.warmup);
    }
  }
  const runs: Run[][] = contenders.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, c] of contenders.entries()) {
      process.stderr.write(`  round ${round}/${rounds}: ${c.label} …\n`);
      runs[i]!.push(await measureRun(c, rate));
    }
  }
  return runs.map(summarize);
}

const one = (origin: string, path: string, headers?: Record<string, string>): LoadTarget => ({
  origin,
  requests: [{ path, ...(headers ? { headers } : {}) }],
});

/** A contender: one request to a server, its CPU time counted. */
const against = (label: string, server: Server, path: string, headers?: Record<string, string>): Contender => ({
  label,
  target: one(server.url, path, headers),
  pids: server.pids,
});

async function largestJsAsset(): Promise<{ name: string; size: number; gz: number }> {
  const dir = join(WEB_DIST, 'assets');
  let best: { name: string; size: number } | undefined;
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js')) continue;
    const size = statSync(join(dir, name)).size;
    if (!best || size > best.size) best = { name, size };
  }
  if (!best) throw new Error('web/dist/assets has no JS file');
  const gzFile = join(dir, `${best.name}.gz`);
  if (!existsSync(gzFile))
    throw new Error(`${gzFile} is missing: build with \`npm run build:web\` (it writes .gz/.br beside each asset)`);
  return { ...best, gz: statSync(gzFile).size };
}

async function main(): Promise<void> {
  const gateway = BENCHMARKS.some((name) => !STANDALONE.includes(name) && wants(name));
  if (gateway) await gatewayBenchmarks();
  else console.log(`# Benchmarks\n\n${machineDescription({ date: new Date().toISOString() })}`);
  if (wants('conversion'))
    await conversionBenchmark({ rounds, positionsRounds: Math.max(0, Number(args['positions-rounds'])) });
  if (wants('find')) await findBenchmark({ requests: Math.max(1, Number(args['find-requests'])) });
  if (wants('crawler')) {
    ensureWebBuild();
    await crawlerPagesBenchmark({ renders: Math.max(1, Number(args['crawler-renders'])), rounds });
  }
  if (wants('conversion-api'))
    await conversionApiBenchmark({ duration: Number(args.duration), rate: Number(args['api-rate']) });
  // In a browser, on a quiet machine: after the load benchmarks.
  if (wants('reader')) await readerBenchmark({ rounds: Math.max(1, Number(args['reader-rounds'])) });
  if (wants('first-paint')) {
    ensureWebBuild();
    await firstPaintBenchmark({ rounds: Math.max(1, Number(args['first-paint-rounds'])) });
  }
}

async function gatewayBenchmarks(): Promise<void> {
  const needsServers = wants('proxy') || wants('pages') || wants('assets') || wants('memory');
  let tools: Tools | undefined;
  if (needsServers) tools = requireTools();
  if (needsServers || wants('bundle')) ensureWebBuild();

  const autocannonVersion = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as { version: string }
  ).version;
  console.log('# Benchmarks\n');
  console.log(
    machineDescription({
      ...(tools ? { nginx: `${tools.nginx.version} (1 worker, access log off)` } : {}),
      load: `${tools ? `wrk ${tools.wrkVersion} (1 thread)` : 'wrk'}, ${load.connections} connections, ${load.warmup} s warm-up (10 connections), then ${rounds} interleaved rounds of ${load.duration} s, medians; fixed-rate runs: autocannon ${autocannonVersion}`,
      gateway: 'one Node process, LOG_LEVEL=warn (no access log), its backend in another process',
      date: new Date().toISOString(),
    }),
  );

  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-'));
  if (tools) wrk = new WrkRunner(tools.wrk, dir);
  const started: Started[] = [];
  let nginx: RunningNginx | undefined;
  try {
    if (!needsServers) {
      if (wants('bundle')) await bundleSizes();
      if (wants('search')) await searchBenchmark(searchSettings);
      return;
    }

    const backend = await startNodeProcess(
      'backend',
      'backend.ts',
      {
        DATA_DIR: join(dir, 'data'),
        ADMIN_PASSWORD,
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      },
      dir,
    );
    started.push(backend);
    const settingsBody = await (await fetch(`${backend.url}/api/v1/settings`)).text();
    const settingsFile = join(dir, 'settings.json');
    await writeFile(settingsFile, settingsBody);
    const login = await fetch(`${backend.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const adminToken = ((await login.json()) as { token?: string }).token;
    if (login.status !== 200 || !adminToken)
      throw new Error(`admin login at the embedded backend failed (${login.status})`);
    const adminCookie = { cookie: `token=${adminToken}` };

    const upstream = await startNodeProcess('upstream', 'upstream.ts', { BENCH_SETTINGS_FILE: settingsFile }, dir);
    started.push(upstream);
    nginx = await startNginx(tools!.nginx, { upstreamUrl: upstream.url, webDist: WEB_DIST, dir });
    const gatewayEnv = { LOG_LEVEL: 'warn', BENCH_WEB_DIST: WEB_DIST };
    const proxyGateway = await startNodeProcess(
      'gateway-proxy',
      'gateway.ts',
      { ...gatewayEnv, BACKEND_URL: upstream.url },
      dir,
    );
    started.push(proxyGateway);

    if (wants('proxy')) {
      const metricsGateway = await startNodeProcess(
        'gateway-metrics',
        'gateway.ts',
        { ...gatewayEnv, BACKEND_URL: upstream.url, METRICS: '1' },
        dir,
      );
      started.push(metricsGateway);
      await proxyOverhead(
        serverOf(upstream),
        serverOf(nginx),
        serverOf(proxyGateway),
        serverOf(metricsGateway),
        settingsBody,
      );
      await metricsGateway.stop();
    }
    if (wants('pages')) {
      const content = await publishDocuments(backend.url, ADMIN_PASSWORD, [
        '城市图书馆的一天',
        '古籍修复室里的故事',
        '阅读改变生活',
      ]);
      const documentPath = `/library/${content.categoryId}/${content.documentIds[0]}`;
      const pagesGateway = await startNodeProcess(
        'gateway-pages',
        'gateway.ts',
        { ...gatewayEnv, BACKEND_URL: backend.url },
        dir,
      );
      started.push(pagesGateway);
      await pages(serverOf(nginx), serverOf(pagesGateway), adminCookie, documentPath);
      await pagesGateway.stop();
      await documentPages(dir, tools!.nginx, started);
    }
    if (wants('assets')) await staticAssets(serverOf(nginx), serverOf(proxyGateway));
    await proxyGateway.stop();
    if (wants('bundle')) await bundleSizes();
    if (wants('memory')) {
      const memoryGateway = await startNodeProcess(
        'gateway-memory',
        'gateway.ts',
        { ...gatewayEnv, BACKEND_URL: backend.url },
        dir,
      );
      started.push(memoryGateway);
      await memory(memoryGateway, backend, adminCookie);
    }
    if (wants('search')) {
      // The search runs in this process: the servers go first, so that it has the machine.
      await nginx.stop();
      nginx = undefined;
      for (const process of started.splice(0).reverse()) await process.stop();
      await searchBenchmark(searchSettings);
    }
  } finally {
    await nginx?.stop();
    for (const process of started.reverse()) await process.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function proxyOverhead(
  upstream: Server,
  nginx: Server,
  gateway: Server,
  metricsGateway: Server,
  settingsBody: string,
): Promise<void> {
  heading('1. Proxy overhead');
  const imagePath = `/view/page/${PAGE_HASH}/1.png`;
  const targets = { direct: upstream, nginx, gateway };
  for (const [name, server] of Object.entries(targets)) {
    const settings = await probe(`${server.url}/api/v1/settings`);
    expectThat(
      settings.status === 200 && settings.body.toString() === settingsBody,
      `${name}: GET /api/v1/settings answers the upstream's JSON`,
    );
    const image = await probe(`${server.url}${imagePath}`);
    expectThat(image.status === 200 && image.body.length === 100 * 1024, `${name}: GET ${imagePath} answers 100 KB`);
  }

  const settingsPath = '/api/v1/settings';
  const contenders: Contender[] = [
    ...Object.entries(targets).map(([name, server]) => against(`settings · ${name}`, server, settingsPath)),
    against('settings · gateway, METRICS=1', metricsGateway, settingsPath),
    ...Object.entries(targets).map(([name, server]) => against(`page image · ${name}`, server, imagePath)),
  ];
  const summaries = await compare(contenders);
  const result = (label: string) => summaries[contenders.findIndex((c) => c.label === label)]!;
  console.log(
    `GET /api/v1/settings (${kib(Buffer.byteLength(settingsBody))} KiB JSON) and GET ${imagePath} (100 KiB PNG) from a minimal Node upstream,`,
  );
  console.log(
    'directly, through nginx (keep-alive upstream) and through the gateway; medians of the rounds. CPU µs/req: CPU time of the',
  );
  console.log('server measured (not of the upstream behind it) per request, from /proc.\n');
  console.log(
    table(
      MEASUREMENT_HEADERS,
      contenders.map((c, i) => measurementRow(c.label, summaries[i]!)),
    ),
  );
  console.log('');
  for (const what of ['settings', 'page image']) {
    const [direct, viaNginx, viaGateway] = ['direct', 'nginx', 'gateway'].map((name) => result(`${what} · ${name}`));
    console.log(
      `- ${what}: gateway ÷ nginx req/s **${ratio(viaGateway!.rps, viaNginx!.rps)}**, p99 ${ratio(viaGateway!.p99, viaNginx!.p99)}, ` +
        `CPU per request ${ratio(viaGateway!.cpuPerRequest, viaNginx!.cpuPerRequest)}; ` +
        `gateway ÷ direct req/s ${ratio(viaGateway!.rps, direct!.rps)}; nginx ÷ direct req/s ${ratio(viaNginx!.rps, direct!.rps)}`,
    );
  }
  const plain = result('settings · gateway');
  const withMetrics = result('settings · gateway, METRICS=1');
  console.log(
    `- metrics on ÷ off (settings through the gateway): req/s ${ratio(withMetrics.rps, plain.rps)}, p99 ${ratio(withMetrics.p99, plain.p99)}`,
  );

  // Latency at the same load for all three: 70 % of what the gateway sustained.
  const rate = Math.max(100, Math.round(plain.rps * 0.7));
  const paced: Contender[] = Object.entries(targets).map(([name, server]) =>
    against(`settings · ${name} @ ${int(rate)} req/s`, server, settingsPath),
  );
  const fixed = await compare(paced, rate);
  console.log(
    `\nAt a fixed ${int(rate)} req/s (70 % of the gateway's peak), latency of GET /api/v1/settings (autocannon, ${PACED_CONNECTIONS} paced connections):\n`,
  );
  console.log(
    table(
      MEASUREMENT_HEADERS,
      paced.map((c, i) => measurementRow(c.label, fixed[i]!)),
    ),
  );
  console.log(
    `\n- at equal load: gateway ÷ nginx p50 **${ratio(fixed[2]!.p50, fixed[1]!.p50)}**, p99 **${ratio(fixed[2]!.p99, fixed[1]!.p99)}**`,
  );
}

async function pages(
  nginx: Server,
  gateway: Server,
  adminCookie: Record<string, string>,
  documentPath: string,
): Promise<void> {
  heading('2. Pages');
  const gatewayUrl = gateway.url;
  const home = await probe(`${gatewayUrl}/`, HTML);
  expectThat(
    home.status === 200 &&
      home.body.includes('id="start-data"') &&
      home.body.includes('"routeData"') &&
      home.body.includes('城市图书馆的一天</a>'),
    'gateway: GET / answers the page with the start data, its route data and its first screen',
  );
  const documentPage = await probe(`${gatewayUrl}${documentPath}`, HTML);
  expectThat(
    documentPage.status === 200 &&
      documentPage.body.includes('<title>城市图书馆的一天 - ') &&
      documentPage.body.includes('"detail"') &&
      /<img[^>]*alt="第 1 页"/.test(documentPage.body.toString()),
    `gateway: GET ${documentPath} answers the document page with its head, route data and first screen (the reader's first page)`,
  );
  const dashboard = await probe(`${gatewayUrl}/admin/dashboard`, { ...HTML, ...adminCookie });
  expectThat(
    dashboard.status === 200 &&
      dashboard.body.includes('id="start-data"') &&
      dashboard.body.includes('"username":"admin"'),
    'gateway: GET /admin/dashboard with the admin cookie answers the page with the admin in the start data',
  );
  const staticIndex = await probe(`${nginx.url}/`, HTML);
  expectThat(
    staticIndex.status === 200 && staticIndex.body.includes('<div id="root">'),
    'nginx: GET / answers the built index.html',
  );

  const homeBr = await probe(`${gatewayUrl}/`, BROWSER);
  expectThat(
    homeBr.status === 200 && homeBr.headers['content-encoding'] === 'br',
    'gateway: GET / as a browser asks answers the page in brotli',
  );
  const documentBr = await probe(`${gatewayUrl}${documentPath}`, BROWSER);

  const [reference, anonymous, document, admin, browserReference, anonymousBr, documentBrSummary] = (await compare([
    against('nginx static index.html', nginx, '/', HTML),
    against('gateway GET /', gateway, '/', HTML),
    against(`gateway GET ${documentPath}`, gateway, documentPath, HTML),
    against('gateway GET /admin/dashboard (admin)', gateway, '/admin/dashboard', { ...HTML, ...adminCookie }),
    against('nginx static index.html, as a browser asks', nginx, '/', BROWSER),
    against('gateway GET /, as a browser asks', gateway, '/', BROWSER),
    against(`gateway GET ${documentPath}, as a browser asks`, gateway, documentPath, BROWSER),
  ])) as [Summary, Summary, Summary, Summary, Summary, Summary, Summary];
  console.log(
    'The built index.html as nginx serves it (static file), against the gateway serving complete pages: `/` and a',
  );
  console.log(
    'document page for a visitor (head of the page, start data, route data and the first screen; the route data and',
  );
  console.log(
    'the rendered page kept briefly per URL), `/admin/dashboard` for the logged-in admin (page guard, user and',
  );
  console.log('permissions kept briefly per token, with the page rendered for them).\n');
  console.log(
    table(MEASUREMENT_HEADERS, [
      measurementRow(`nginx · static index.html (${kib(staticIndex.body.length)} KiB)`, reference),
      measurementRow(`gateway · / (${kib(home.body.length)} KiB)`, anonymous),
      measurementRow(`gateway · document page (${kib(documentPage.body.length)} KiB)`, document),
      measurementRow(`gateway · /admin/dashboard, admin (${kib(dashboard.body.length)} KiB)`, admin),
      measurementRow(`nginx · static index.html, Accept-Encoding of a browser`, browserReference),
      measurementRow(`gateway · /, Accept-Encoding of a browser (${kib(homeBr.body.length)} KiB br)`, anonymousBr),
      measurementRow(
        `gateway · document page, Accept-Encoding of a browser (${kib(documentBr.body.length)} KiB br)`,
        documentBrSummary,
      ),
    ]),
  );
  console.log(
    `\n- \`/\`: gateway ÷ nginx req/s **${ratio(anonymous.rps, reference.rps)}**, p99 ${ratio(anonymous.p99, reference.p99)}, CPU per request ${ratio(anonymous.cpuPerRequest, reference.cpuPerRequest)}`,
  );
  console.log(
    `- document page: gateway ÷ nginx req/s **${ratio(document.rps, reference.rps)}**, p99 ${ratio(document.p99, reference.p99)}, CPU per request ${ratio(document.cpuPerRequest, reference.cpuPerRequest)} (goal ≥ 0.5×)`,
  );
  console.log(
    `- as a browser asks (\`Accept-Encoding: gzip, deflate, br, zstd\`, pages sent in brotli): \`/\` **${ratio(anonymousBr.rps, browserReference.rps)}**, document page **${ratio(documentBrSummary.rps, browserReference.rps)}** of nginx's req/s`,
  );
  console.log(
    `- \`/admin/dashboard\`: gateway ÷ nginx req/s **${ratio(admin.rps, reference.rps)}**, p99 ${ratio(admin.p99, reference.p99)}, CPU per request ${ratio(admin.cpuPerRequest, reference.cpuPerRequest)}`,
  );
}

/** The stored page nearest 100 KiB: the reader's page image of the issue's goal. */
async function pageNear100KiB(siteUrl: string, hash: string, pages: number): Promise<{ n: number; bytes: Buffer }> {
  let best: { n: number; bytes: Buffer } | undefined;
  for (let n = 1; n <= pages; n++) {
    const page = await probe(`${siteUrl}/view/page/${hash}/${n}.svg`, GZIP);
    expectThat(
      page.status === 200 && page.headers['content-encoding'] === 'gzip',
      `site: page ${n} answers its gzip SVG`,
    );
    if (!best || Math.abs(page.body.length - 100 * 1024) < Math.abs(best.bytes.length - 100 * 1024))
      best = { n, bytes: page.body };
  }
  return best!;
}

/**
 * A page of a converted document as a reader's browser asks for it, from the site as `npm
 * start` runs it (gateway and embedded backend in one process, the page answered in
 * process), against the same site asking its backend over loopback HTTP (the way before),
 * nginx in front of the embedded backend, and nginx serving the stored file (the floor).
 */
async function documentPages(dir: string, nginxBinary: NginxBinary, started: Started[]): Promise<void> {
  heading('2b. Pages of a converted document');
  const site = await startNodeProcess(
    'site',
    'site.ts',
    {
      DATA_DIR: join(dir, 'site-data'),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      BENCH_WEB_DIST: WEB_DIST,
      BENCH_PROXIED_GATEWAY: '1',
    },
    dir,
  );
  started.push(site);
  let nginx: RunningNginx | undefined;
  try {
    const client = new SiteClient(site.url);
    await client.login('admin', ADMIN_PASSWORD);
    process.stderr.write('  converting a 3-page Chinese PDF …\n');
    const doc = await client.convertedDocument(repeatedPdf(3), '基准测试文档');
    const page = await pageNear100KiB(site.url, doc.hash, doc.pages);
    const pagePath = `/view/page/${doc.hash}/${page.n}.svg`;

    // The stored file, copied where nginx's worker may read it.
    const filesRoot = join(dir, 'nginx-files');
    await mkdir(filesRoot, { recursive: true, mode: 0o755 });
    await writeFile(join(filesRoot, `${page.n}.gzip.svg`), page.bytes, { mode: 0o644 });
    nginx = await startNginx(nginxBinary, {
      upstreamUrl: String(site.announced.backend),
      webDist: WEB_DIST,
      dir,
      filesRoot,
    });

    const inProcess: Server = { url: site.url, pids: [site.pid] };
    const overHttp: Server = { url: String(site.announced.proxied), pids: [site.pid] };
    const nginxToBackend: Server = { url: nginx.url, pids: [nginx.pid, site.pid] };
    const nginxStatic: Server = { url: nginx.url, pids: [nginx.pid] };
    const staticPath = `/files/${page.n}.gzip.svg`;
    for (const [name, server, path] of [
      ['site, over HTTP', overHttp, pagePath],
      ['nginx → backend', nginxToBackend, pagePath],
      ['nginx static', nginxStatic, staticPath],
    ] as const) {
      const res = await probe(`${server.url}${path}`, GZIP);
      expectThat(res.status === 200 && res.body.equals(page.bytes), `${name}: GET ${path} answers the stored page`);
    }

    const [floor, reference, mine, before] = (await compare([
      against('nginx static file', nginxStatic, staticPath, GZIP),
      against('nginx → embedded backend', nginxToBackend, pagePath, GZIP),
      against('site, page in process', inProcess, pagePath, GZIP),
      against('site, page over loopback HTTP', overHttp, pagePath, GZIP),
    ])) as [Summary, Summary, Summary, Summary];
    console.log(
      `GET ${pagePath.replace(doc.hash, '<hash>')} with Accept-Encoding: gzip: page ${page.n} of a Chinese text PDF converted by the site,`,
    );
    console.log(
      `stored as gzip SVG (${kib(page.bytes.length)} KiB), free to read (rights checked on every request). The site is one process`,
    );
    console.log(
      '(gateway and embedded backend, as `npm start`); its CPU µs/req counts both. nginx → backend counts nginx and the site process.\n',
    );
    console.log(
      table(MEASUREMENT_HEADERS, [
        measurementRow(`nginx · the stored file (sendfile)`, floor),
        measurementRow('nginx → embedded backend', reference),
        measurementRow('site · page in process', mine),
        measurementRow('site · page over loopback HTTP', before),
      ]),
    );
    console.log(
      `\n- in process ÷ nginx → backend: req/s **${ratio(mine.rps, reference.rps)}**, p99 ${ratio(mine.p99, reference.p99)}, CPU per request ${ratio(mine.cpuPerRequest, reference.cpuPerRequest)}`,
    );
    console.log(
      `- in process ÷ over loopback HTTP: req/s **${ratio(mine.rps, before.rps)}**, CPU per request ${ratio(mine.cpuPerRequest, before.cpuPerRequest)}`,
    );
    console.log(`- in process ÷ nginx static file: req/s ${ratio(mine.rps, floor.rps)}`);
  } finally {
    await nginx?.stop();
    await site.stop();
  }
}

async function staticAssets(nginx: Server, gateway: Server): Promise<void> {
  heading('3. Static assets');
  const asset = await largestJsAsset();
  const path = `/assets/${asset.name}`;
  for (const [name, server] of [
    ['nginx', nginx],
    ['gateway', gateway],
  ] as const) {
    const res = await probe(`${server.url}${path}`, GZIP);
    expectThat(
      res.status === 200 && res.headers['content-encoding'] === 'gzip' && res.body.length === asset.gz,
      `${name}: GET ${path} with Accept-Encoding: gzip answers the pre-compressed .gz (${asset.gz} bytes)`,
    );
  }
  const [reference, fromGateway] = (await compare([
    against('nginx gzip_static', nginx, path, GZIP),
    against('gateway asset table', gateway, path, GZIP),
  ])) as [Summary, Summary];
  console.log(
    `The largest JS asset, ${path} (${kib(asset.size)} KiB, ${kib(asset.gz)} KiB gzip), with Accept-Encoding: gzip.\n`,
  );
  console.log(
    table(MEASUREMENT_HEADERS, [
      measurementRow('nginx · gzip_static', reference),
      measurementRow('gateway · asset table (memory)', fromGateway),
    ]),
  );
  console.log(
    `\n- gateway ÷ nginx req/s **${ratio(fromGateway.rps, reference.rps)}**, p99 ${ratio(fromGateway.p99, reference.p99)}`,
  );
}

async function bundleSizes(): Promise<void> {
  heading('4. Bundle sizes');
  const weights = await routeWeights(WEB_DIST);
  const shell = weights[0]!;
  console.log(
    'Initial JS and CSS per route group from web/dist/.vite/manifest.json (entry + the lazy layout and screen',
  );
  console.log('of the route, closed over static imports), compressed with node:zlib (gzip -9, brotli 11). KiB.\n');
  console.log(
    table(
      ['route group', 'JS files', 'JS raw', 'JS gzip', 'JS brotli', 'CSS raw', 'CSS gzip', 'CSS brotli'],
      weights.map((w) => [
        `${w.group.name} (${w.group.url})`,
        w.jsFiles.length,
        kib(w.js.raw),
        kib(w.js.gzip),
        kib(w.js.brotli),
        kib(w.css.raw),
        kib(w.css.gzip),
        kib(w.css.brotli),
      ]),
    ),
  );
  console.log('');
  for (const w of weights.slice(1)) {
    console.log(
      `- ${w.group.name} ÷ ${shell.group.name}: JS gzip **${ratio(w.js.gzip, shell.js.gzip)}**, CSS gzip ${ratio(w.css.gzip, shell.css.gzip)}`,
    );
  }
  console.log(`- brotli ÷ gzip (public home JS): ${ratio(shell.js.brotli, shell.js.gzip)}`);
}

async function memory(gateway: Started, backend: Started, adminCookie: Record<string, string>): Promise<void> {
  heading('5. Memory');
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const idle = await memoryOf(gateway.pid);
  const backendIdle = await memoryOf(backend.pid);

  const asset = await largestJsAsset();
  const mix: RequestSpec[] = [
    { method: 'GET', path: '/api/v1/settings' },
    { method: 'GET', path: '/', headers: HTML },
    { method: 'GET', path: '/admin/dashboard', headers: { ...HTML, ...adminCookie } },
    { method: 'GET', path: `/assets/${asset.name}`, headers: GZIP },
    { method: 'GET', path: '/api/v1/category/list' },
    { method: 'GET', path: '/api/v1/user', headers: adminCookie },
    { method: 'GET', path: '/healthz' },
  ];
  process.stderr.write(`  mixed load for ${memoryDuration} s …\n`);
  const loaded = await wrk.measure(
    { origin: gateway.url, requests: mix },
    { duration: memoryDuration, warmup: 0, connections: load.connections },
  );
  const afterLoad = await memoryOf(gateway.pid);
  const backendAfter = await memoryOf(backend.pid);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const settled = await memoryOf(gateway.pid);

  console.log(
    `A fresh gateway process: idle 5 s after start, then ${memoryDuration} s of mixed load (${load.connections} connections cycling`,
  );
  console.log(
    `through ${mix.map((r) => r.path).join(', ')}; ${int(loaded.rps)} req/s, ${int(loaded.failures)} failures),`,
  );
  console.log(
    'then 10 s idle. RSS from /proc; the peak is VmHWM. The embedded backend runs in its own process here.\n',
  );
  console.log(
    table(
      ['moment', 'gateway RSS MiB', 'gateway peak MiB', 'backend RSS MiB'],
      [
        ['idle', mib(idle.rss), mib(idle.peak), mib(backendIdle.rss)],
        [`after ${memoryDuration} s of load`, mib(afterLoad.rss), mib(afterLoad.peak), mib(backendAfter.rss)],
        ['10 s later', mib(settled.rss), mib(settled.peak), '—'],
      ],
    ),
  );
  console.log(
    `\n- gateway RSS after load ÷ idle **${ratio(afterLoad.rss, idle.rss)}**, peak ÷ idle ${ratio(afterLoad.peak, idle.rss)}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof MissingTool) {
    console.error(`\n${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
