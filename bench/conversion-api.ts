// The conversion benchmark of the whole site (`npm run bench -- --only=conversion-api`): the
// gateway with its embedded backend in one process, as `npm start` runs it. A 100-page text
// PDF, then a 30-page scan (whose conversion is mostly libvips' image work), uploaded through
// the gateway, are each converted again and again (PUT /api/v1/document/reconvert) while GET
// /api/v1/settings is asked at a fixed rate; the same load against the idle site is the
// reference. Goal (issue 13): the API's p99 during a conversion at most 2× the idle p99, every
// page converted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repeatedPdf, scannedPdf } from '../tests/helpers/documents';
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
const CONNECTIONS = 10;

interface BenchDocument {
  label: string;
  pages: number;
  pdf: () => Promise<Buffer>;
}

const DOCUMENTS: BenchDocument[] = [
  { label: '100-page Chinese text PDF', pages: 100, pdf: async () => repeatedPdf(100) },
  { label: '30-page scan (200 dpi grey JPEG)', pages: 30, pdf: () => scannedPdf(30) },
];

export async function conversionApiBenchmark(options: ConversionApiOptions): Promise<void> {
  heading('Conversion in the site: the API while documents convert');
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-convert-api-'));
  const site = await startNodeProcess(
    'site',
    'site.ts',
    {
      DATA_DIR: join(dir, 'data'),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      BENCH_WEB_DIST: join(REPO_ROOT, 'tests/gateway/fixtures/web-dist'),
    },
    dir,
  );
  try {
    const client = new SiteClient(site.url);
    await client.login('admin', ADMIN_PASSWORD);
    const ids: number[] = [];
    for (const [index, document] of DOCUMENTS.entries()) {
      const attachmentId = await client.upload(await document.pdf(), `bench-${index}.pdf`);
      await client.call('POST', '/api/v1/document', {
        document: [{ title: `基准测试文档 ${index + 1}`, attachment_id: attachmentId }],
      });
      const list = await client.call<{ document: { id: number }[] }>('GET', '/api/v1/document/list?limit=1');
      const id = list.document[0]!.id;
      const first = await client.waitForDocument(id, (doc) => doc.status === 2);
      if (first.pages !== document.pages) throw new Error(`converted ${first.pages} pages of ${document.pages}`);
      ids.push(id);
    }

    const target = { origin: site.url, requests: [{ path: '/api/v1/settings' }] };
    await runAtRate(target, CONNECTIONS, 3, options.rate);
    const idle = await runAtRate(target, CONNECTIONS, options.duration, options.rate);

    const row = (label: string, m: Measurement) => [label, int(m.rps), ms(m.p50), ms(m.p99), int(m.failures)];
    const rows = [row('idle', idle)];
    const notes: string[] = [];
    for (const [index, document] of DOCUMENTS.entries()) {
      const id = ids[index]!;
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
      rows.push(row(`converting the ${document.label}`, busy));
      notes.push(
        `- ${document.label}: p99 converting ÷ idle **${ratio(busy.p99, idle.p99)}** (goal ≤ 2×), p50 ${ratio(busy.p50, idle.p50)}; ` +
          `${conversions} conversions, all pages each time: ${int((conversions * document.pages) / (convertingMs / 1000))} pages/s through the API (reconvert → status 2, pages stored)`,
      );
    }
    const memory = await memoryOf(site.pid);

    console.log(
      `GET /api/v1/settings at ${int(options.rate)} req/s (${CONNECTIONS} connections, ${options.duration} s each) through the gateway,`,
    );
    console.log(
      'whose process also runs the embedded backend and its converter (each document reconverted back to back).\n',
    );
    console.log(table(['site', 'req/s', 'p50', 'p99', 'failures'], rows));
    console.log('');
    for (const note of notes) console.log(note);
    console.log(`- site process peak RSS (VmHWM, worker threads included): ${mib(memory.peak)} MiB`);
  } finally {
    await site.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
