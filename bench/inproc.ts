// `npm run bench:inproc -- --before=<checkout>`: the site as `npm start` runs it (gateway and
// embedded backend in one process) against nginx (1 worker, keep-alive upstream) in front of
// the backend run on its own (`npm run backend`), and against the same site built from another
// checkout (`--before`, e.g. a `git worktree` of the commit before, with its node_modules and its
// own `npm run build:web`: each site serves and renders its first screens with its own build), all
// measured in the same run, interleaved. Pinned (the default): every server process on CPU 0,
// wrk on CPU 1 (taskset); `--unpinned` leaves them to the scheduler. The servers share one
// DATA_DIR made once here (a category and 10 converted documents), copied for each.
// Requests: three API reads, then pages whose route data is made for each request (a visitor's
// search for a new word each time, a member's document page: a member's calls are never kept).
// Options: --duration (s, 10), --rounds (3), --connections (100), --before, --unpinned, --only=api|pages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pinToCpus } from './lib/cpus';
import { WrkRunner, type RequestSpec } from './lib/load';
import { startNginx } from './lib/nginx';
import { REPO_ROOT, cpuTimeOfAll, startNodeProcess, withChildren, type Started } from './lib/processes';
import { int, ms, ratio, table } from './lib/report';
import { publishDocuments } from './lib/site-content';
import { requireTools } from './lib/tools';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    before: { type: 'string' },
    unpinned: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
if (args.only !== undefined && args.only !== 'api' && args.only !== 'pages') throw new Error('--only: api or pages');
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const pinned = !args.unpinned;
const ADMIN_PASSWORD = 'bench-admin-password';
const WEB_DIST = process.env.BENCH_WEB_DIST ?? join(REPO_ROOT, 'web/dist');
const TITLES = Array.from({ length: 10 }, (_, i) => `城市图书馆 ${i + 1}`);

interface Contender {
  name: string;
  url: string;
  pids: () => Promise<number[]>;
}

interface Row {
  rps: number[];
  p99: number[];
  cpu: number[];
  failures: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Every thread of the processes on CPU 0 (threads made later inherit it). */
function pin(pids: number[]): void {
  if (pinned) pinToCpus(pids, '0');
}

/** Waits until the contender's processes use less than 5 % of a core over a second (at most 3 minutes). */
async function untilIdle(contender: Contender): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const pids = await contender.pids();
    const before = await cpuTimeOfAll(pids);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if ((await cpuTimeOfAll(pids)) - before < 50_000) return;
  }
  process.stderr.write(`${contender.name} still busy after 3 minutes\n`);
}

async function json<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T; cookie: string }> {
  const res = await fetch(url, init);
  return {
    status: res.status,
    body: (await res.json().catch(() => undefined)) as T,
    cookie: res.headers.get('set-cookie')?.split(';', 1)[0] ?? '',
  };
}

async function main(): Promise<void> {
  const tools = requireTools();
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-inproc-'));
  // wrk on CPU 1, the servers on CPU 0.
  const wrkPath = join(dir, 'wrk');
  await writeFile(
    wrkPath,
    pinned ? `#!/bin/sh\nexec taskset -c 1 ${tools.wrk} "$@"\n` : `#!/bin/sh\nexec ${tools.wrk} "$@"\n`,
  );
  await chmod(wrkPath, 0o755);
  const wrk = new WrkRunner(wrkPath, dir);
  const started: Started[] = [];
  const env = {
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
    CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'false',
    BENCH_WEB_DIST: WEB_DIST,
  };
  let stopNginx: (() => Promise<void>) | undefined;
  try {
    // The content, made by each checkout's own backend (another checkout's database may be of
    // another schema): the same category, documents and member, so the same ids.
    const seedWith = async (name: string, checkout?: string) => {
      process.stderr.write(`making the content (${name}): a category and 10 converted documents …\n`);
      const seed = await startNodeProcess(name, 'backend.ts', { ...env, DATA_DIR: join(dir, name) }, dir, [], checkout);
      try {
        await publishDocuments(seed.url, ADMIN_PASSWORD, TITLES, 2);
        const member = await json(`${seed.url}/api/v1/user/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'benchreader', password: 'bench-reader-password' }),
        });
        if (member.status !== 200) throw new Error(`member registration: ${member.status}`);
        const documents = await json<{ document: { id: number; category_id?: number[] }[] }>(
          `${seed.url}/api/v1/document/list?page=1&size=10`,
        );
        const category = await json<{ category: { id: number }[] }>(`${seed.url}/api/v1/category/list?type=0`);
        return { documentId: documents.body.document[0]!.id, categoryId: category.body.category[0]!.id };
      } finally {
        await seed.stop();
      }
    };
    const { documentId, categoryId } = await seedWith('seed');
    for (const name of ['site', 'backend']) await cp(join(dir, 'seed'), join(dir, name), { recursive: true });
    if (args.before) {
      const before = await seedWith('before', args.before);
      if (before.documentId !== documentId || before.categoryId !== categoryId)
        throw new Error(`the before checkout's content has other ids: ${JSON.stringify(before)}`);
    }

    const contenders: Contender[] = [];
    const site = await startNodeProcess('site', 'site.ts', { ...env, DATA_DIR: join(dir, 'site') }, dir);
    started.push(site);
    contenders.push({ name: 'site, in process', url: site.url, pids: async () => [site.pid] });
    if (args.before) {
      const beforeWeb = join(args.before, 'web/dist');
      if (!existsSync(join(beforeWeb, 'index.html')))
        throw new Error(`${beforeWeb} is missing: run \`npm run build:web\` in ${args.before} first`);
      const before = await startNodeProcess(
        'before',
        'site.ts',
        { ...env, DATA_DIR: join(dir, 'before'), BENCH_WEB_DIST: beforeWeb },
        dir,
        [],
        args.before,
      );
      started.push(before);
      contenders.push({ name: 'site before (loopback HTTP)', url: before.url, pids: async () => [before.pid] });
    }
    const backend = await startNodeProcess('backend', 'backend.ts', { ...env, DATA_DIR: join(dir, 'backend') }, dir);
    started.push(backend);
    const nginx = await startNginx(tools.nginx, { upstreamUrl: backend.url, webDist: WEB_DIST, dir });
    stopNginx = () => nginx.stop();
    contenders.push({
      name: 'nginx → npm run backend',
      url: nginx.url,
      pids: async () => [...(await withChildren(nginx.pid)), backend.pid],
    });
    for (const contender of contenders) pin(await contender.pids());
    // What a start leaves to do in the background (the pages at reading resolution, the search
    // index, the sitemap) must not count as the requests' CPU time.
    for (const contender of contenders) await untilIdle(contender);

    // The member's cookie, for each site (nginx serves no pages).
    const cookies = new Map<string, string>();
    for (const contender of contenders.slice(0, args.before ? 2 : 1)) {
      const login = await json(`${contender.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'benchreader', password: 'bench-reader-password' }),
      });
      if (login.status !== 200 || !login.cookie) throw new Error(`${contender.name}: member login ${login.status}`);
      cookies.set(contender.url, login.cookie);
    }

    const api: [string, string][] = [
      ['GET /api/v1/settings', '/api/v1/settings'],
      ['GET /api/v1/category/list?type=0', '/api/v1/category/list?type=0'],
      ['GET /api/v1/document/list?page=1&size=10', '/api/v1/document/list?page=1&size=10'],
    ];
    const html = { accept: 'text/html', 'accept-encoding': 'gzip, br' };
    const pages: [string, (url: string) => RequestSpec[]][] = [
      // Searches for words nobody asked for before in this run, more than a round can ask for (wrk cycles
      // through them): every page misses the page cache and makes its route data.
      [
        "a visitor's search page, a new word each",
        () =>
          Array.from({ length: 40_000 }, (_, i) => ({
            path: `/search?wd=${encodeURIComponent(`图书${i}x${Math.random().toString(36).slice(2, 8)}`)}`,
            headers: html,
          })),
      ],
      [
        "a member's document page",
        (url) => [{ path: `/library/${categoryId}/${documentId}`, headers: { ...html, cookie: cookies.get(url)! } }],
      ],
    ];

    const results = new Map<string, Map<string, Row>>();
    const measure = async (label: string, contender: Contender, requests: RequestSpec[]) => {
      const pids = await contender.pids();
      const cpuBefore = await cpuTimeOfAll(pids);
      const result = await wrk.run({ origin: contender.url, requests }, connections, duration);
      const cpu = (await cpuTimeOfAll(pids)) - cpuBefore;
      const byName = results.get(label) ?? new Map<string, Row>();
      results.set(label, byName);
      const row = byName.get(contender.name) ?? { rps: [], p99: [], cpu: [], failures: 0 };
      byName.set(contender.name, row);
      row.rps.push(result.rps);
      row.p99.push(result.p99);
      row.cpu.push(cpu / Math.max(1, result.requests));
      row.failures += result.failures;
    };

    for (const [label, path] of args.only === 'pages' ? [] : api) {
      for (const contender of contenders) await wrk.run({ origin: contender.url, requests: [{ path }] }, 10, 3);
      for (let round = 0; round < rounds; round += 1) {
        for (const contender of contenders) await measure(label, contender, [{ path }]);
      }
    }
    const sites = contenders.filter((c) => c.name.startsWith('site'));
    for (const [label, requests] of args.only === 'api' ? [] : pages) {
      for (const contender of sites) await wrk.run({ origin: contender.url, requests: requests(contender.url) }, 10, 3);
      for (let round = 0; round < rounds; round += 1) {
        for (const contender of sites) await measure(label, contender, requests(contender.url));
      }
    }

    const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ');
    console.log(
      `\n${pinned ? 'Pinned: servers on CPU 0, wrk on CPU 1' : 'Unpinned'}; wrk 1 thread, ${connections} connections, ${rounds} interleaved rounds of ${duration} s, medians; load average at the end ${load}; ${new Date().toISOString()}\n`,
    );
    for (const [label, byName] of results) {
      console.log(`${label}\n`);
      console.log(
        table(
          ['contender', 'req/s', 'req/s range', 'p99 ms', 'CPU µs/req', 'failures'],
          [...byName].map(([name, row]) => [
            name,
            int(median(row.rps)),
            `${int(Math.min(...row.rps))}–${int(Math.max(...row.rps))}`,
            ms(median(row.p99)),
            int(median(row.cpu)),
            row.failures,
          ]),
        ),
      );
      const mine = byName.get('site, in process')!;
      const reference = byName.get('nginx → npm run backend');
      const before = byName.get('site before (loopback HTTP)');
      const line: string[] = [];
      if (reference)
        line.push(
          `÷ nginx → backend: req/s **${ratio(median(mine.rps), median(reference.rps))}**, p99 ${ratio(median(mine.p99), median(reference.p99))}, CPU ${ratio(median(mine.cpu), median(reference.cpu))}`,
        );
      if (before)
        line.push(
          `÷ before: req/s **${ratio(median(mine.rps), median(before.rps))}**, p99 ${ratio(median(mine.p99), median(before.p99))}, CPU **${ratio(median(mine.cpu), median(before.cpu))}**`,
        );
      console.log(`\n- in process ${line.join('; ')}\n`);
    }
  } finally {
    await stopNginx?.();
    for (const process of started.reverse()) await process.stop();
  }
}

await main();
