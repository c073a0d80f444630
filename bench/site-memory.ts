// `npm run bench:site-memory`: the production bundle (`npm run start:prod`: gateway and
// embedded backend in one process) under a mixed load, and what its memory does. The site gets
// a category and converted documents first (so the conversion threads have run, as on a live
// site), then wrk cycles through a visitor's home, a document page, settings, two page images,
// a search page, a list and GetDocument over --connections (200) for --duration (120 s) while
// the process's RSS is sampled every second; then it idles for --after (30 s).
// Reported: RSS idle (before and after the conversions), the peak during the load, at its end
// and after the idle; wrk's rate, p99 and slowest answer. Goals (issue 44): RSS ≤ 300 MiB
// during and after, no answer over 1 s.
// With --per-path=S, each request of the mix then runs alone for S seconds: which one makes the slow answers.
// Options: --duration (s, 120), --connections (200), --after (s, 30), --documents (5), --pages (10), --per-path (s, 0: off).
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../tests/helpers/ports';
import { WrkRunner, type RequestSpec } from './lib/load';
import { REPO_ROOT, cpuTimeOfAll, stopChild } from './lib/processes';
import { table } from './lib/report';
import { publishDocuments } from './lib/site-content';
import { requireTools } from './lib/tools';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '120' },
    connections: { type: 'string', default: '200' },
    after: { type: 'string', default: '30' },
    documents: { type: 'string', default: '5' },
    pages: { type: 'string', default: '10' },
    'per-path': { type: 'string', default: '0' },
  },
});
const ADMIN_PASSWORD = 'bench-admin-password';
const MiB = 1024 * 1024;

/** VmRSS and VmHWM (peak) of a process, in bytes. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

async function untilIdle(pid: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const before = await cpuTimeOfAll([pid]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if ((await cpuTimeOfAll([pid])) - before < 50_000) return;
  }
}

/** node's flags in `npm run start:prod` (package.json), which the site is started with here too. */
async function startProdFlags(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts['start:prod']!.split(' ').filter((word) => word.startsWith('--'));
}

async function json<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json', ...headers } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

async function main(): Promise<void> {
  const tools = requireTools();
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-site-memory-'));
  // Inside the repository, so that the bundle finds node_modules as dist/server does.
  await mkdir(join(REPO_ROOT, '.tmp'), { recursive: true });
  const bundle = await mkdtemp(join(REPO_ROOT, '.tmp', 'bench-bundle-'));
  process.stderr.write('building the server bundle (as npm run build:server) …\n');
  execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/build-info.ts'), bundle], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  });
  execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/build-server.ts'), bundle], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const site = spawn(
    process.execPath,
    [
      ...(await startProdFlags()),
      ...(process.env.BENCH_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
      join(bundle, 'gateway/server.mjs'),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: join(dir, 'data'),
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
        CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    for (let tries = 0; ; tries += 1) {
      if ((await fetch(`${url}/healthz`).catch(() => undefined))?.ok) break;
      if (tries > 600 || site.exitCode !== null) throw new Error('the site did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await untilIdle(site.pid!);
    const fresh = await memoryOf(site.pid!);
    process.stderr.write(`converting ${args.documents} documents of ${args.pages} pages …\n`);
    const titles = Array.from({ length: Number(args.documents) }, (_, i) => `城市图书馆 ${i + 1}`);
    const content = await publishDocuments(url, ADMIN_PASSWORD, titles, Number(args.pages));
    await untilIdle(site.pid!);
    const converted = await memoryOf(site.pid!);

    const id = content.documentIds[0]!;
    const doc = await json<{ attachment?: { hash?: string }; preview_ext?: string; enable_gzip?: boolean }>(
      `${url}/api/v1/document?id=${id}`,
    );
    const ext = doc.preview_ext === '.svg' && doc.enable_gzip ? '.gzip.svg' : doc.preview_ext || '.svg';
    const html = { accept: 'text/html', 'accept-encoding': 'gzip, br' };
    const api = { accept: 'application/json', 'accept-encoding': 'gzip, br' };
    const requests: RequestSpec[] = [
      { path: '/', headers: html },
      { path: `/library/${content.categoryId}/${id}`, headers: html },
      { path: '/api/v1/settings', headers: api },
      { path: `/view/page/${doc.attachment!.hash}/1${ext}`, headers: { 'accept-encoding': 'gzip' } },
      { path: `/view/page/${doc.attachment!.hash}/2${ext}`, headers: { 'accept-encoding': 'gzip' } },
      { path: `/search?wd=${encodeURIComponent('图书馆')}`, headers: html },
      { path: '/api/v1/document/list?page=1&size=10', headers: api },
      { path: `/api/v1/document?id=${id}`, headers: api },
    ];
    for (const request of requests) {
      const res = await fetch(`${url}${request.path}`, { headers: request.headers });
      if (!res.ok) throw new Error(`${request.path}: ${res.status}`);
      await res.arrayBuffer();
    }

    const samples: number[] = [];
    const sampler = setInterval(() => {
      void memoryOf(site.pid!).then(
        (m) => samples.push(m.rss),
        () => undefined,
      );
    }, 1000);
    process.stderr.write(`mixed load: ${args.connections} connections, ${args.duration} s …\n`);
    const result = await new WrkRunner(tools.wrk, dir).run(
      { origin: url, requests },
      Number(args.connections),
      Number(args.duration),
    );
    clearInterval(sampler);
    const atEnd = await memoryOf(site.pid!);
    await new Promise((resolve) => setTimeout(resolve, Number(args.after) * 1000));
    const after = await memoryOf(site.pid!);

    const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
    console.log(
      `\nnpm run start:prod (bundle of this checkout), ${args.documents} documents of ${args.pages} pages converted; wrk 1 thread, ${args.connections} connections, ${args.duration} s; load average at the end ${load}; ${new Date().toISOString()}\n`,
    );
    console.log(
      table(
        ['moment', 'RSS MiB', 'peak (VmHWM) MiB'],
        [
          ['idle after start', (fresh.rss / MiB).toFixed(1), (fresh.peak / MiB).toFixed(1)],
          ['idle after the conversions', (converted.rss / MiB).toFixed(1), (converted.peak / MiB).toFixed(1)],
          ['highest sample during the load', (Math.max(...samples) / MiB).toFixed(1), '—'],
          ['end of the load', (atEnd.rss / MiB).toFixed(1), (atEnd.peak / MiB).toFixed(1)],
          [`${args.after} s later`, (after.rss / MiB).toFixed(1), (after.peak / MiB).toFixed(1)],
        ],
      ),
    );
    console.log(
      `\n- mixed load: ${Math.round(result.rps).toLocaleString('en')} req/s, ${result.requests.toLocaleString('en')} answers, ${result.failures} failures, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, slowest ${result.max.toFixed(0)} ms`,
    );
    console.log(
      `- goals: RSS ≤ 300 MiB during and after (peak ${(Math.max(atEnd.peak, after.peak) / MiB).toFixed(0)} MiB), no answer over 1 s (slowest ${result.max.toFixed(0)} ms)`,
    );
    // Each request of the mix alone, after the rest: which of them makes the slow answers.
    if (Number(args['per-path']) > 0) {
      const rows: string[][] = [];
      for (const request of requests) {
        const alone = await new WrkRunner(tools.wrk, dir).run(
          { origin: url, requests: [request] },
          Number(args.connections),
          Number(args['per-path']),
        );
        rows.push([
          request.path.slice(0, 48),
          Math.round(alone.rps).toLocaleString('en'),
          alone.p50.toFixed(1),
          alone.p99.toFixed(1),
          alone.max.toFixed(0),
        ]);
      }
      console.log(`\nEach alone, ${args.connections} connections, ${args['per-path']} s:\n`);
      console.log(table(['request', 'req/s', 'p50 ms', 'p99 ms', 'slowest ms'], rows));
    }
  } finally {
    await stopChild(site);
    await rm(dir, { recursive: true, force: true });
    await rm(bundle, { recursive: true, force: true });
  }
}

await main();
