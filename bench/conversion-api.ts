// The conversion benchmark of the whole site (`npm run bench -- --only=conversion-api`): the
// gateway with its embedded backend in one process, as `npm start` runs it. A 100-page text
// PDF is uploaded through the gateway and converted again and again (PUT
// /api/v1/document/reconvert) while GET /api/v1/settings is asked at a fixed rate; the same
// load against the idle site is the reference. Goal (issue 13): the API's p99 during a
// conversion at most 2× the idle p99, every page converted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repeatedPdf } from '../tests/helpers/documents';
import { runAtRate, type Measurement } from './lib/load';
import { REPO_ROOT, memoryOf, startNodeProcess } from './lib/processes';
import { heading, int, mib, ms, ratio, table } from './lib/report';
import { SiteClient } from './lib/site-client';

export interface ConversionApiOptions {
  /** seconds of each measured run */
  duration: number;
  /** GET /api/v1/settings per second */
  rate: number;
}

const ADMIN_PASSWORD = 'bench-admin-password';
const PAGES = 100;
const CONNECTIONS = 10;

export async function conversionApiBenchmark(options: ConversionApiOptions): Promise<void> {
  heading('Conversion in the site: the API while documents convert');
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-convert-api-'));
  const site = await startNodeProcess('site', 'site.ts', {
    DATA_DIR: join(dir, 'data'), ADMIN_PASSWORD, LOG_LEVEL: 'warn', CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
    BENCH_WEB_DIST: join(REPO_ROOT, 'tests/gateway/fixtures/web-dist'),
  }, dir);
  try {
    const client = new SiteClient(site.url);
    await client.login('admin', ADMIN_PASSWORD);
    const attachmentId = await client.upload(repeatedPdf(PAGES), 'bench.pdf');
    await client.call('POST', '/api/v1/document', { document: [{ title: '基准测试文档', attachment_id: attachmentId }] });
    const list = await client.call<{ document: { id: number }[] }>('GET', '/api/v1/document/list?limit=1');
    const id = list.document[0]!.id;
    const first = await client.waitForDocument(id, (doc) => doc.status === 2);
    if (first.pages !== PAGES) throw new Error(`converted ${first.pages} pages of ${PAGES}`);

    const target = { origin: site.url, requests: [{ path: '/api/v1/settings' }] };
    await runAtRate(target, CONNECTIONS, 3, options.rate);
    const idle = await runAtRate(target, CONNECTIONS, options.duration, options.rate);

    // Conversions back to back for as long as the load runs.
    let converting = true;
    let conversions = 0;
    let convertingMs = 0;
    const driver = (async () => {
      while (converting) {
        const started = Date.now();
        await client.call('PUT', '/api/v1/document/reconvert', { id: [id] });
        await client.waitForDocument(id, (doc) => doc.status === 2);
        convertingMs += Date.now() - started;
        conversions += 1;
      }
    })();
    await sleep(500);
    const busy = await runAtRate(target, CONNECTIONS, options.duration, options.rate);
    converting = false;
    await driver;
    const memory = await memoryOf(site.pid);

    const row = (label: string, m: Measurement) => [label, int(m.rps), ms(m.p50), ms(m.p99), int(m.failures)];
    console.log(`GET /api/v1/settings at ${int(options.rate)} req/s (${CONNECTIONS} connections, ${options.duration} s) through the gateway,`);
    console.log(`whose process also runs the embedded backend and its converter (${PAGES}-page Chinese text PDF, reconverted back to back).\n`);
    console.log(table(['site', 'req/s', 'p50', 'p99', 'failures'], [row('idle', idle), row('converting', busy)]));
    console.log('');
    console.log(`- p99 converting ÷ idle: **${ratio(busy.p99, idle.p99)}** (goal ≤ 2×); p50 ${ratio(busy.p50, idle.p50)}`);
    console.log(`- ${conversions} conversions of ${PAGES} pages, all pages each time: ${int((conversions * PAGES) / (convertingMs / 1000))} pages/s through the API (reconvert → status 2, pages stored)`);
    console.log(`- site process peak RSS (VmHWM, worker threads included): ${mib(memory.peak)} MiB`);
  } finally {
    await site.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
