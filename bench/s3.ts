// `npm run bench:s3 [-- --only=pages,memory,workers --duration=10 --rounds=2 --many-documents=5 --documents=20
// --pages=20]`:
// the S3 blob store against the local one, as ratios measured in the same run (bench/README.md,
// "Files in S3"). The S3 server is s3rver on loopback in a process of its own.
//   pages    page images per second from three sites (bench/processes/site.ts) with the same
//            documents: on DATA_DIR, on the bucket, on the bucket without the cache of small
//            blobs; page 1 over and over, then the readable pages of 5 longer documents; wrk, interleaved.
//   memory   100 concurrent downloads of a 50 MB original from the bucket through the site:
//            the site's peak RSS (VmHWM), sampled VmRSS too.
//   workers  the same batch of PDFs converted by one `npm run worker` process, then another batch
//            by two, on one PostgreSQL and one bucket; wall time and CPU time per process.
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { request } from 'undici';
import { WrkRunner, type Measurement } from './lib/load';
import { REPO_ROOT, cpuTimeOf, memoryOf, startNodeProcess, stopChild, type Started } from './lib/processes';
import { int, mib, ms, ratio, table } from './lib/report';
import { publishDocuments } from './lib/site-content';
import { textPdf } from '../tests/helpers/documents';
import { createDatabase, startPostgresCluster } from '../tests/helpers/postgres';

const option = (name: string, fallback: number) =>
  Number(/=(\d+)$/.exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ?? fallback);
const only = (
  process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? 'pages,memory,workers'
).split(',');
const ADMIN_PASSWORD = 'bench-admin-password';
const COMMON = {
  ADMIN_PASSWORD,
  CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef',
  CONFIG_DOWNLOAD_SECRET_KEY: 'bench-download-secret-0123456789',
};
const MIB = 1024 * 1024;
/** The SPA is not what is measured: the tests' stand-in build spares a `npm run build:web`. */
const WEB_DIST = path.join(REPO_ROOT, 'tests/gateway/fixtures/web-dist');

// The SDK's notice that its releases after January 2027 want Node 22 (s3-blob-store.ts says why it is silenced).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-bench-s3-'));
const started: Started[] = [];
const folder = (name: string) => {
  const made = path.join(dir, name);
  fs.mkdirSync(made, { recursive: true });
  return made;
};

async function json<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return (await res.json()) as T;
}

const login = async (url: string) =>
  (
    await json<{ token: string }>(`${url}/api/v1/user/login`, {
      method: 'POST',
      body: { username: 'admin', password: ADMIN_PASSWORD },
    })
  ).token;
const documentOf = (url: string, token: string, id: number) =>
  json<{ status: number; attachment?: { hash?: string } }>(`${url}/api/v1/document?id=${id}`, { token });

async function startS3rver(): Promise<{ process: Started; env: Record<string, string> }> {
  // the legacy provider for s3rver's continuation tokens (DES), as in vitest.config.ts
  const s3 = await startNodeProcess('s3rver', 's3rver.ts', {}, dir, ['--openssl-legacy-provider']);
  started.push(s3);
  return { process: s3, env: s3.announced.env as Record<string, string> };
}

async function startSite(name: string, env: Record<string, string>): Promise<Started & { backend: string }> {
  const site = await startNodeProcess(
    name,
    'site.ts',
    { ...COMMON, BENCH_BACKEND_LISTEN: '1', BENCH_WEB_DIST: WEB_DIST, DATA_DIR: folder(name), ...env },
    dir,
  );
  started.push(site);
  return { ...site, backend: site.announced.backend as string };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The sites of the page runs: the S3 one with its cache of small blobs (the default) and without (S3_CACHE_MB=0). */
const PAGE_SITES = {
  local: 'local store (DATA_DIR)',
  s3: 'S3, cache (default)',
  's3-nocache': 'S3, S3_CACHE_MB=0',
} as const;
type PageSite = keyof typeof PAGE_SITES;

async function pagesBench(): Promise<void> {
  const settings = {
    duration: option('duration', 10),
    warmup: option('warmup', 3),
    connections: option('connections', 50),
  };
  const rounds = option('rounds', 2);
  const manyDocuments = option('many-documents', 5);
  const s3 = await startS3rver();
  const sites: Record<PageSite, Started & { backend: string }> = {
    local: await startSite('site-local', {}),
    s3: await startSite('site-s3', s3.env),
    // Its own folder of the bucket: the same documents convert to the same keys.
    's3-nocache': await startSite('site-s3-nocache', { ...s3.env, S3_PREFIX: 'nocache', S3_CACHE_MB: '0' }),
  };
  /**
   * Per site: page 1 of a 3-page document (read over and over), and every page a visitor may read of `manyDocuments`
   * longer ones (cycled).
   */
  const paths: Record<string, { one: string[]; many: string[] }> = {};
  for (const [kind, site] of Object.entries(sites)) {
    const token = await login(site.backend);
    const small = await publishDocuments(site.backend, ADMIN_PASSWORD, ['城市图书馆'], 3);
    const hashOf = async (id: number) => (await documentOf(site.backend, token, id)).attachment!.hash!;
    const many: string[] = [];
    // Different page counts make different PDFs, hence different hashes and pages.
    for (let d = 0; d < manyDocuments; d += 1) {
      const pages = 20 + d;
      const large = await publishDocuments(site.backend, ADMIN_PASSWORD, [`城市年鉴 ${d + 1}`], pages);
      const largeHash = await hashOf(large.documentIds[0]!);
      // Anonymous readers see only the free preview: the pages they may read are the ones measured.
      for (let n = 1; n <= pages; n += 1) {
        const pagePath = `/view/page/${largeHash}/${n}.svg`;
        const answer = await request(`${site.url}${pagePath}`, { headers: { 'accept-encoding': 'gzip' } });
        await answer.body.dump();
        if (answer.statusCode === 200) many.push(pagePath);
      }
    }
    paths[kind] = { one: [`/view/page/${await hashOf(small.documentIds[0]!)}/1.svg`], many };
  }
  const wrk = new WrkRunner('wrk', dir);
  const runs: Record<string, Measurement[]> = {};
  /** CPU microseconds of the measured runs: the site's, and s3rver's, and the requests they answered. */
  const cpu: Record<string, { site: number; s3: number; requests: number }> = {};
  const target = (kind: PageSite, set: 'one' | 'many') => ({
    origin: sites[kind].url,
    requests: paths[kind]![set].map((p) => ({ path: p, headers: { 'accept-encoding': 'gzip' } })),
  });
  const kinds = Object.keys(sites) as PageSite[];
  for (let round = 0; round < rounds; round += 1) {
    for (const set of ['one', 'many'] as const) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        const site = sites[kind];
        const name = `${set} ${kind}`;
        if (settings.warmup > 0) await wrk.run(target(kind, set), Math.min(settings.connections, 10), settings.warmup);
        const before = { site: await cpuTimeOf(site.pid), s3: await cpuTimeOf(s3.process.pid) };
        const measured = await wrk.run(target(kind, set), settings.connections, settings.duration);
        const spent = (cpu[name] ??= { site: 0, s3: 0, requests: 0 });
        spent.site += (await cpuTimeOf(site.pid)) - before.site;
        spent.s3 += (await cpuTimeOf(s3.process.pid)) - before.s3;
        spent.requests += measured.requests;
        (runs[name] ??= []).push(measured);
      }
    }
  }
  const page = await request(`${sites.local.url}${paths.local!.one[0]!}`, { headers: { 'accept-encoding': 'gzip' } });
  const pageBytes = (await page.body.arrayBuffer()).byteLength;
  const rps = (name: string) => median(runs[name]!.map((r) => r.rps));
  const p99 = (name: string) => median(runs[name]!.map((r) => r.p99));
  const perRequest = (name: string, of: 'site' | 's3') => ms(cpu[name]![of] / cpu[name]!.requests / 1000);
  const rows = (['one', 'many'] as const).flatMap((set) =>
    kinds.map((kind) => {
      const name = `${set} ${kind}`;
      const m = runs[name]!;
      return [
        set === 'one' ? 'page 1, over and over' : `${paths[kind]!.many.length} pages, cycled`,
        PAGE_SITES[kind],
        int(rps(name)),
        ms(median(m.map((r) => r.p50))),
        ms(p99(name)),
        m.reduce((sum, r) => sum + r.failures, 0),
        perRequest(name, 'site'),
        perRequest(name, 's3'),
      ];
    }),
  );
  console.log(
    `\nPage images: GET /view/page/<hash>/<n>.svg (gzip SVG, page 1 ${pageBytes} bytes), ${settings.connections} connections, ${rounds} interleaved rounds of ${settings.duration} s (medians):\n`,
  );
  console.log(
    table(['pages', 'store', 'req/s', 'p50 ms', 'p99 ms', 'failures', 'site CPU ms/req', 's3rver CPU ms/req'], rows),
  );
  for (const set of ['one', 'many'] as const) {
    const of = (kind: PageSite) => `${set} ${kind}`;
    console.log(
      `- ${set === 'one' ? 'one page' : 'many pages'}: S3 ÷ local req/s **${ratio(rps(of('s3')), rps(of('local')))}** (goal ≥ 0.8×), p99 ${ratio(p99(of('s3')), p99(of('local')))}; without the cache ${ratio(rps(of('s3-nocache')), rps(of('local')))}`,
    );
  }
  for (const site of [...Object.values(sites), s3.process]) await site.stop();
}

async function memoryBench(): Promise<void> {
  const downloads = option('downloads', 100);
  const size = option('size-mb', 50) * MIB;
  const s3 = await startS3rver();
  let site = await startSite('site-s3-memory', s3.env);
  const content = await publishDocuments(site.backend, ADMIN_PASSWORD, ['大文件'], 1);
  // Started again on the same database and bucket: what the conversion left in memory is not counted.
  await site.stop();
  site = await startSite('site-s3-memory', s3.env);
  const token = await login(site.backend);
  const id = content.documentIds[0]!;
  const doc = await documentOf(site.backend, token, id);
  const hash = doc.attachment!.hash!;
  // The document's original replaced in the bucket by `size` bytes: the route streams what the key holds.
  const key = `documents/${hash.slice(0, 5).split('').join('/')}/${hash}.pdf`;
  const client = new S3Client({
    endpoint: s3.env.S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  });
  const body = crypto.randomBytes(size);
  await client.send(new PutObjectCommand({ Bucket: s3.env.S3_BUCKET, Key: key, Body: body, ContentLength: size }));
  client.destroy();
  const link = await json<{ url: string }>(`${site.backend}/api/v1/document/download?id=${id}`, { token });
  if (!link.url) throw new Error(`no download link: ${JSON.stringify(link)}`);
  const url = new URL(link.url, site.url).href;
  const before = await memoryOf(site.pid);
  let sampledPeak = before.rss;
  const sampler = setInterval(() => {
    memoryOf(site.pid).then(
      (m) => {
        sampledPeak = Math.max(sampledPeak, m.rss);
      },
      () => undefined,
    );
  }, 100);
  const startedAt = Date.now();
  const results = await Promise.all(
    Array.from({ length: downloads }, async () => {
      const res = await request(url);
      let received = 0;
      for await (const chunk of res.body) received += (chunk as Buffer).length;
      return { status: res.statusCode, received };
    }),
  );
  const seconds = (Date.now() - startedAt) / 1000;
  clearInterval(sampler);
  const after = await memoryOf(site.pid);
  const complete = results.filter((r) => r.status === 200 && r.received === size).length;
  if (complete < downloads)
    console.log(
      `incomplete downloads, e.g. ${JSON.stringify(results.find((r) => r.status !== 200 || r.received !== size))}`,
    );
  console.log(
    `\nMemory: ${downloads} concurrent downloads of a ${mib(size)} MiB original from S3 through the site (one process, gateway and embedded backend):\n`,
  );
  console.log(
    table(
      ['', 'value'],
      [
        ['downloads complete (200, every byte)', `${complete} / ${downloads}`],
        ['wall time', `${seconds.toFixed(1)} s (${mib((size * complete) / seconds)} MiB/s)`],
        ['RSS before', `${mib(before.rss)} MiB`],
        ['RSS sampled peak (every 100 ms)', `${mib(sampledPeak)} MiB`],
        ['VmHWM (peak RSS since start)', `${mib(after.peak)} MiB`],
      ],
    ),
  );
  console.log(`\n- peak RSS **${mib(after.peak)} MiB** (goal < 300 MiB)`);
  await site.stop();
  await s3.process.stop();
}

interface Worker {
  pid: number;
  stop(): Promise<void>;
}

function startWorker(name: string, env: Record<string, string>): Promise<Worker> {
  const log = fs.createWriteStream(path.join(dir, `${name}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'backend/worker.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(log);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      log.write(`${line}\n`);
      if (line.includes('worker running jobs')) resolve({ pid: child.pid!, stop: () => stopChild(child) });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready; log in ${dir}`)));
  });
}

async function workersBench(): Promise<void> {
  const count = option('documents', 20);
  const pages = option('pages', 20);
  const cluster = await startPostgresCluster();
  try {
    const s3 = await startS3rver();
    const shared = { ...COMMON, ...s3.env, DATABASE_URL: await createDatabase(cluster.url) };
    const web = await startSite('web', { ...shared, RUN_JOBS: 'false' });
    const token = await login(web.backend);
    const category = await json<{ id?: number }>(`${web.backend}/api/v1/category`, {
      method: 'POST',
      token,
      body: { title: '转换', type: 0 },
    });
    void category;
    const categories = await json<{ category: { id: number }[] }>(`${web.backend}/api/v1/category/list?type=0`, {
      token,
    });
    const categoryId = categories.category[0]!.id;
    let made = 0;
    /** `count` documents of `pages` pages, each PDF distinct (page sizes differ), queued for conversion. */
    const batch = async (): Promise<number[]> => {
      const ids: number[] = [];
      for (let i = 0; i < count; i += 1) {
        made += 1;
        const pdf = textPdf(pages, [500 + made, 700 + made]);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(pdf)]), `doc-${made}.pdf`);
        const upload = await fetch(`${web.backend}/api/v1/upload/document`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        });
        const uploaded = (await upload.json()) as { data: { id: number } };
        await json(`${web.backend}/api/v1/document`, {
          method: 'POST',
          token,
          body: {
            category_id: [categoryId],
            document: [{ title: `文档 ${made}`, attachment_id: uploaded.data.id, price: 0 }],
          },
        });
      }
      const list = await json<{ document: { id: number; title: string }[] }>(
        `${web.backend}/api/v1/document/list?size=1000&order=id%20asc`,
        { token },
      );
      for (const d of list.document) if (Number(/\d+$/.exec(d.title)?.[0]) > made - count) ids.push(d.id);
      return ids;
    };
    const convert = async (workerCount: number) => {
      const ids = await batch();
      const workers: Worker[] = [];
      for (let w = 0; w < workerCount; w += 1) {
        workers.push(
          await startWorker(`worker-${workerCount}-${w + 1}`, {
            ...shared,
            DATA_DIR: folder(`worker-${workerCount}-${w + 1}`),
            CONVERT_WORKERS: '1',
            CONVERT_JOBS: '1',
          }),
        );
      }
      const cpuBefore = { s3: await cpuTimeOf(s3.process.pid), web: await cpuTimeOf(web.pid) };
      const startedAt = Date.now();
      for (;;) {
        const statuses = await Promise.all(ids.map(async (id) => (await documentOf(web.backend, token, id)).status));
        if (statuses.includes(3)) throw new Error(`a conversion failed; logs in ${dir}`);
        if (statuses.every((s) => s === 2)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const wall = (Date.now() - startedAt) / 1000;
      const cpu = {
        workers: (await Promise.all(workers.map((w) => cpuTimeOf(w.pid)))).map((us) => us / 1e6),
        s3: ((await cpuTimeOf(s3.process.pid)) - cpuBefore.s3) / 1e6,
        web: ((await cpuTimeOf(web.pid)) - cpuBefore.web) / 1e6,
      };
      for (const w of workers) await w.stop();
      return { wall, cpu, documents: ids.length };
    };
    const one = await convert(1);
    const two = await convert(2);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `\nConversion: ${count} text PDFs of ${pages} pages per run, PostgreSQL + s3rver, workers with CONVERT_WORKERS=1 CONVERT_JOBS=1; ${os.availableParallelism()} cores, load average now ${load}:\n`,
    );
    console.log(
      table(
        ['workers', 'documents', 'wall s', 'CPU s, each worker (incl. start)', 'CPU s, s3rver', 'CPU s, web instance'],
        [one, two].map((r, i) => [
          i + 1,
          r.documents,
          r.wall.toFixed(1),
          r.cpu.workers.map((c) => c.toFixed(1)).join(' + '),
          r.cpu.s3.toFixed(1),
          r.cpu.web.toFixed(1),
        ]),
      ),
    );
    console.log(
      `\n- 2 workers ÷ 1: throughput **${ratio(one.wall, two.wall)}** (wall time ${ratio(two.wall, one.wall)})`,
    );
    await web.stop();
    await s3.process.stop();
  } finally {
    await cluster.stop();
  }
}

try {
  if (only.includes('pages')) await pagesBench();
  if (only.includes('memory')) await memoryBench();
  if (only.includes('workers')) await workersBench();
  fs.rmSync(dir, { recursive: true, force: true });
} catch (error) {
  console.error(`The processes' logs are kept in ${dir}`);
  throw error;
} finally {
  for (const process of started) await process.stop();
}
