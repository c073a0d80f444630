// `npm run bench:profile -- --target=settings`: where the gateway's time goes for one kind of
// request. Starts what the target needs (as `npm run bench` does), runs the gateway under
// `node --cpu-prof`, loads it with wrk, then prints the gateway's CPU time per request
// (/proc, profiler included) and its CPU profile as tables of self time by package and by
// function, and total (top-down) time by function. The .cpuprofile is kept for a flame-graph
// viewer (Chrome DevTools, speedscope) when --keep is given.
// Targets: settings, image (a fake 100 KiB page image from the minimal upstream), home (`/`),
// dashboard (`/admin/dashboard` as the admin), page (a page of a converted document, the site
// in one process as `npm start` runs it), site (`--path`, default `/api/v1/settings`, from the site
// in one process, the embedded backend answering in process: the backend's own cost; `--documents`
// converted documents first, in a category, for the lists), reader (a member's document page from the
// site: its route data and page made for each request, as a member's are never kept), search (a
// visitor's search page for a new word each time, from the site). Options: --duration, --connections,
// --top, --interval (sampling, µs), --keep, --no-profile (CPU time only).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repeatedPdf } from '../tests/helpers/documents';
import { summarizeProfile, type CpuProfile, type ProfileRow } from './lib/cpu-profile';
import { WrkRunner, type LoadTarget } from './lib/load';
import {
  REPO_ROOT,
  cpuTimeOf,
  startBackendProcess,
  startNodeProcess,
  startSiteProcess,
  type Started,
} from './lib/processes';
import { int, table } from './lib/report';
import { SiteClient } from './lib/site-client';
import { publishDocuments } from './lib/site-content';
import { requireTools } from './lib/tools';

const TARGETS = ['settings', 'image', 'home', 'dashboard', 'page', 'site', 'reader', 'search'] as const;
type Target = (typeof TARGETS)[number];

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: 'settings' },
    path: { type: 'string', default: '/api/v1/settings' },
    documents: { type: 'string', default: '0' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    top: { type: 'string', default: '25' },
    interval: { type: 'string', default: '250' },
    keep: { type: 'boolean', default: false },
    'no-profile': { type: 'boolean', default: false },
  },
});
if (!(TARGETS as readonly string[]).includes(args.target)) throw new Error(`--target: one of ${TARGETS.join(', ')}`);
const target = args.target as Target;
const profiling = !args['no-profile'];

const ADMIN_PASSWORD = 'bench-admin-password';
const WEB_DIST = join(REPO_ROOT, 'web/dist');
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const rows = (list: ProfileRow[]) =>
  list.map((row) => [row.name, percent(row.self), row.total === undefined ? '' : percent(row.total)]);

async function main(): Promise<void> {
  const tools = requireTools();
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-profile-'));
  const wrk = new WrkRunner(tools.wrk, dir);
  const profileDir = join(dir, 'profile');
  const nodeOptions = profiling
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${args.interval}`]
    : [];
  const started: Started[] = [];
  const track = async (starting: Promise<Started>) => {
    const process = await starting;
    started.push(process);
    return process;
  };
  const start = (...params: Parameters<typeof startNodeProcess>) => track(startNodeProcess(...params));
  const startSite = () =>
    track(
      startSiteProcess(
        dir,
        ADMIN_PASSWORD,
        { BENCH_WEB_DIST: WEB_DIST, CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'false' },
        nodeOptions,
      ),
    );
  try {
    let profiled: Started;
    let load: LoadTarget;
    const gatewayEnv = { LOG_LEVEL: 'warn', BENCH_WEB_DIST: WEB_DIST };
    if (target === 'site') {
      profiled = await startSite();
      const documents = Number(args.documents);
      if (documents > 0) {
        process.stderr.write(`converting ${documents} documents …\n`);
        await publishDocuments(
          profiled.url,
          ADMIN_PASSWORD,
          Array.from({ length: documents }, (_, i) => `性能分析文档 ${i + 1}`),
          2,
        );
      }
      load = { origin: profiled.url, requests: [{ path: args.path }] };
    } else if (target === 'search') {
      profiled = await startSite();
      const titles = Array.from({ length: Math.max(1, Number(args.documents)) }, (_, i) => `性能分析文档 ${i + 1}`);
      await publishDocuments(profiled.url, ADMIN_PASSWORD, titles, 2);
      // A word nobody asked for before each time, more than the load can ask for: every page is made.
      load = {
        origin: profiled.url,
        requests: Array.from({ length: 40_000 }, (_, i) => ({
          path: `/search?wd=${encodeURIComponent(`文档${i}x${Math.random().toString(36).slice(2, 8)}`)}`,
          headers: { ...HTML, 'accept-encoding': 'gzip, br' },
        })),
      };
    } else if (target === 'reader') {
      profiled = await startSite();
      const titles = Array.from({ length: Math.max(1, Number(args.documents)) }, (_, i) => `性能分析文档 ${i + 1}`);
      const { categoryId, documentIds } = await publishDocuments(profiled.url, ADMIN_PASSWORD, titles, 2);
      const member = new SiteClient(profiled.url);
      await member.call('POST', '/api/v1/user/register', {
        username: 'benchreader',
        password: 'bench-reader-password',
      });
      await member.login('benchreader', 'bench-reader-password');
      load = {
        origin: profiled.url,
        requests: [
          {
            path: `/library/${categoryId}/${documentIds[0]}`,
            headers: { ...HTML, 'accept-encoding': 'gzip, br', cookie: member.cookie },
          },
        ],
      };
    } else if (target === 'page') {
      profiled = await startSite();
      const client = new SiteClient(profiled.url);
      await client.login('admin', ADMIN_PASSWORD);
      const doc = await client.convertedDocument(repeatedPdf(3), '性能分析文档');
      load = {
        origin: profiled.url,
        requests: [{ path: `/view/page/${doc.hash}/1.gzip.svg`, headers: { 'accept-encoding': 'gzip' } }],
      };
    } else {
      const backend = await track(startBackendProcess(dir, ADMIN_PASSWORD));
      if (target === 'settings' || target === 'image') {
        const settingsFile = join(dir, 'settings.json');
        await writeFile(settingsFile, await (await fetch(`${backend.url}/api/v1/settings`)).text());
        const upstream = await start('upstream', 'upstream.ts', { BENCH_SETTINGS_FILE: settingsFile }, dir);
        profiled = await start('gateway', 'gateway.ts', { ...gatewayEnv, BACKEND_URL: upstream.url }, dir, nodeOptions);
        const path = target === 'settings' ? '/api/v1/settings' : '/view/page/0123456789abcdef0123456789abcdef/1.png';
        load = { origin: profiled.url, requests: [{ path }] };
      } else {
        profiled = await start('gateway', 'gateway.ts', { ...gatewayEnv, BACKEND_URL: backend.url }, dir, nodeOptions);
        if (target === 'home') {
          load = { origin: profiled.url, requests: [{ path: '/', headers: HTML }] };
        } else {
          const client = new SiteClient(profiled.url);
          await client.login('admin', ADMIN_PASSWORD);
          load = {
            origin: profiled.url,
            requests: [{ path: '/admin/dashboard', headers: { ...HTML, cookie: client.cookie } }],
          };
        }
      }
    }

    process.stderr.write(`warming up ${target} …\n`);
    await wrk.run(load, 10, 3);
    const before = await cpuTimeOf(profiled.pid);
    process.stderr.write(`loading ${target} for ${args.duration} s …\n`);
    const measured = await wrk.run(load, Number(args.connections), Number(args.duration));
    const cpu = (await cpuTimeOf(profiled.pid)) - before;
    const stopping = performance.now();
    await profiled.stop();
    // The profile's tail: the load and the stop, not the start (modules, conversions).
    const loadedMs = Number(args.duration) * 1000 + (performance.now() - stopping);

    console.log(`# ${target}: ${load.requests[0]!.path}\n`);
    console.log(
      `- ${int(measured.rps)} req/s over ${args.duration} s, ${args.connections} connections, ${int(measured.failures)} failures`,
    );
    console.log(
      `- CPU time of the ${profiled.name} process per request: ${int(cpu / measured.requests)} µs${profiling ? ' (with the profiler sampling every ' + args.interval + ' µs)' : ''}`,
    );
    if (!profiling) return;

    const [file] = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile in ${profileDir}: did the process exit cleanly?`);
    const summary = summarizeProfile(
      JSON.parse(await readFile(join(profileDir, file), 'utf8')) as CpuProfile,
      Number(args.top),
      loadedMs,
    );
    console.log(
      `- profile of the load: ${int(summary.sampledMs)} ms sampled, idle ${percent(summary.idle)}; shares below are of the busy time\n`,
    );
    console.log('## Self time by place\n');
    console.log(table(['place', 'self', ''], rows(summary.byPlace)));
    console.log('\n## Self time by function\n');
    console.log(table(['function', 'self', 'total'], rows(summary.byFunction)));
    console.log('\n## Total time by function (top-down)\n');
    console.log(table(['function', 'self', 'total'], rows(summary.byTotal)));
    if (args.keep) console.log(`\nprofile kept: ${join(profileDir, file)}`);
  } finally {
    for (const process of started.reverse()) await process.stop();
    if (!args.keep) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
