// The first-paint benchmark (`npm run bench -- --only=first-paint`): how soon a visitor on a
// phone-class connection sees the home page with its real content. Chromium through
// playwright-core (the system browser, as the browser tests run it) opens `/` on a fresh
// profile with Chrome DevTools' "Slow 4G" (562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up)
// and a 4× CPU slowdown, in a 390×844 phone viewport. It takes the first contentful paint and
// the moment the latest documents are on screen (the page's route data: no API call before
// them), and counts the bytes and API requests before then. The reference is MOREDOC's Nuxt
// client, whose first paint of the home page, without content, comes at a median of 5.6 s in
// the same harness (issue 17); the goal is the home page with its content in 0.4× that.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, openPhoneVisit, startGateway } from './lib/browser';
import { startBackendProcess, type Started } from './lib/processes';
import { heading, kib, ms, ratio, table } from './lib/report';
import { publishDocuments } from './lib/site-content';

export interface FirstPaintOptions {
  /** Page loads measured, each on a fresh browser profile. */
  rounds: number;
}

/** MOREDOC's first paint of the home page, without content, in these conditions (issue 17). */
const MOREDOC_FIRST_PAINT_MS = 5_600;
const GOAL = 0.4;
const ADMIN_PASSWORD = 'bench-admin-password';
const TITLES = ['城市图书馆的一天', '古籍修复室里的故事', '阅读改变生活'];

/** DevTools' "Slow 4G" preset (its throughput already scaled by DevTools' 0.9 factor). */
interface Load {
  fcpMs: number;
  /** the latest documents' first title rendered in #root (the crawler content is hidden, so it does not count) */
  contentMs: number;
  bytesBefore: number;
  requestsBefore: number;
  apiRequestsBefore: number;
  /** the responses finished before the content, in the order they finished */
  resources: { path: string; bytes: number; endMs: number }[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// In the page, before any script of the site: the first contentful paint, and the frame in
// which the title of the newest document is first rendered by the SPA.
const probe = (title: string) => `
window.__fcp = new Promise((resolve) => new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') resolve(e.startTime);
}).observe({ type: 'paint', buffered: true }));
window.__content = new Promise((resolve) => {
  const check = () => {
    const root = document.getElementById('root');
    if (root && root.innerText.includes(${JSON.stringify(title)})) requestAnimationFrame(() => resolve(performance.now()));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
});
`;

async function measureLoad(browser: Browser, url: string, title: string): Promise<Load> {
  const { context, page, finished, navigationAt } = await openPhoneVisit(browser, probe(title));
  try {
    await page.goto(url, { waitUntil: 'commit' });
    const fcpMs = await page.evaluate(() => (window as unknown as { __fcp: Promise<number> }).__fcp);
    const contentMs = await page.evaluate(() => (window as unknown as { __content: Promise<number> }).__content);
    const apiStarts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
        .map((e) => e.startTime),
    );
    const origin = navigationAt() ?? 0;
    const before = finished.filter((f) => (f.at - origin) * 1000 <= contentMs);
    return {
      fcpMs,
      contentMs,
      bytesBefore: before.reduce((sum, f) => sum + f.bytes, 0),
      requestsBefore: before.length,
      apiRequestsBefore: apiStarts.filter((start) => start < contentMs).length,
      resources: before.map((f) => ({ path: new URL(f.url).pathname, bytes: f.bytes, endMs: (f.at - origin) * 1000 })),
    };
  } finally {
    await context.close();
  }
}

export async function firstPaintBenchmark(options: FirstPaintOptions): Promise<void> {
  heading('First paint of the home page on slow 4G');
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-first-paint-'));
  const started: Started[] = [];
  let browser: Browser | undefined;
  try {
    const backend = await startBackendProcess(dir, ADMIN_PASSWORD);
    started.push(backend);
    await publishDocuments(backend.url, ADMIN_PASSWORD, TITLES);
    const gateway = await startGateway(backend.url, dir);
    started.push(gateway);
    browser = await launchChromium(['--no-first-run']);
    // The newest document heads the list of the latest ones.
    const newest = TITLES[TITLES.length - 1]!;
    process.stderr.write('  warm-up load …\n');
    await measureLoad(browser, `${gateway.url}/`, newest);
    const loads: Load[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      process.stderr.write(`  load ${round}/${options.rounds} …\n`);
      loads.push(await measureLoad(browser, `${gateway.url}/`, newest));
    }
    const figure = (of: (l: Load) => number, format: (n: number) => string) => {
      const values = loads.map(of);
      return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
    };
    console.log(
      'Chromium opens `/` on a fresh profile with DevTools\' "Slow 4G" (562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s',
    );
    console.log(
      `up), a 4× CPU slowdown and a 390×844 phone viewport; the gateway with the embedded backend in processes of their`,
    );
    console.log(`own, three converted documents. One warm-up load, then ${options.rounds} loads; medians and range.\n`);
    console.log(
      table(
        ['figure', 'value'],
        [
          ['first contentful paint, ms', figure((l) => l.fcpMs, ms)],
          ['latest documents on screen, ms', figure((l) => l.contentMs, ms)],
          ['bytes downloaded before them, KiB', figure((l) => l.bytesBefore, kib)],
          [
            'requests finished before them',
            figure(
              (l) => l.requestsBefore,
              (n) => String(Math.round(n)),
            ),
          ],
          [
            'API requests started before them',
            figure(
              (l) => l.apiRequestsBefore,
              (n) => String(Math.round(n)),
            ),
          ],
          ['MOREDOC first paint, no content (reference), ms', ms(MOREDOC_FIRST_PAINT_MS)],
        ],
      ),
    );
    const content = median(loads.map((l) => l.contentMs));
    const typical = [...loads].sort((a, b) => a.contentMs - b.contentMs)[Math.floor(loads.length / 2)]!;
    console.log('\nWhat the median load fetched before the latest documents were on screen:\n');
    console.log(
      table(
        ['resource', 'KiB', 'done at ms'],
        typical.resources.map((r) => [r.path, kib(r.bytes), ms(r.endMs)]),
      ),
    );
    const met = content <= MOREDOC_FIRST_PAINT_MS * GOAL;
    console.log(
      `\n- home with content ÷ MOREDOC's first paint: **${ratio(content, MOREDOC_FIRST_PAINT_MS)}** (goal ${GOAL}×: **${met ? 'met' : 'not met'}**)`,
    );
  } finally {
    await browser?.close();
    for (const process of started.reverse()) await process.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
