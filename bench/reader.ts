// The reader benchmark (`npm run bench -- --only=reader`): how soon a visitor sees the first
// page of a 20-page document on a phone-class connection. Chromium through playwright-core
// (the system browser, as the browser tests run it) opens `/library/{category}/{id}` on a
// fresh profile with Chrome DevTools' "Slow 4G" (562.5 ms latency, 1.44 Mbit/s down,
// 675 kbit/s up) and a 4× CPU slowdown; we time the first page image until it is painted and
// count the bytes downloaded before then. The reference is MOREDOC's Nuxt client served
// statically, whose first paint of the document route comes at a median of 6.0 s in the same
// conditions, before it has asked for any page image (issue 14); the goal is 0.4× that.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { repeatedPdf } from '../tests/helpers/documents';
import { CPU_SLOWDOWN, ensureWebBuild, launchChromium, openPhoneVisit, startGateway } from './lib/browser';
import { startBackendProcess, type Started } from './lib/processes';
import { heading, kib, ms, ratio, table } from './lib/report';
import { adminToken, json } from './lib/site-content';

export interface ReaderBenchOptions {
  /** Page loads measured, each on a fresh browser profile. */
  rounds: number;
}

/** MOREDOC's first paint of the document route in these conditions (issue 14). */
const MOREDOC_FIRST_PAINT_MS = 6_000;
const GOAL = 0.4;
const PAGES = 20;
export const ADMIN_PASSWORD = 'bench-admin-password';

/** DevTools' "Slow 4G" preset (its throughput already scaled by DevTools' 0.9 factor). */
interface Load {
  /** From navigation start to the first page image painted. */
  firstPageMs: number;
  /** Largest contentful paint, for comparison (the first page is usually it). */
  lcpMs: number;
  bytesBefore: number;
  requestsBefore: number;
  /** When the page's (HTML's) answer began to arrive, from navigation start. */
  pageAnsweredMs: number | undefined;
  /** When the first page image was asked for, from navigation start. */
  imageRequestedMs: number | undefined;
  /** The resources finished before the first page was painted, in order, with their bytes. */
  resources: { url: string; bytes: number; endMs: number }[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A converted `pages`-page document in its category, made through the backend's own API (as `admin`). */
export async function publishDocument(
  backendUrl: string,
  pages = PAGES,
): Promise<{ categoryId: number; documentId: number; token: string }> {
  const token = await adminToken(backendUrl, ADMIN_PASSWORD);
  await json(`${backendUrl}/api/v1/category`, {
    method: 'POST',
    token,
    body: JSON.stringify({ title: '教育资料', type: 0, enable: true }),
  });
  const categories = await json(`${backendUrl}/api/v1/category/list?type=0`, { token });
  const categoryId = (categories.body.category as { id: number }[])[0]!.id;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(repeatedPdf(pages))]), '城市图书馆.pdf');
  const upload = await fetch(`${backendUrl}/api/v1/upload/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const uploaded = (await upload.json()) as { data?: { id: number } };
  if (!uploaded.data) throw new Error(`upload of the benchmark document: ${upload.status} ${JSON.stringify(uploaded)}`);
  const attachmentId = uploaded.data.id;
  const created = await json(`${backendUrl}/api/v1/document`, {
    method: 'POST',
    token,
    body: JSON.stringify({
      category_id: [categoryId],
      document: [{ title: '城市图书馆的一天', attachment_id: attachmentId, price: 0 }],
    }),
  });
  if (created.status !== 200)
    throw new Error(`creating the benchmark document: ${created.status} ${JSON.stringify(created.body)}`);
  const list = await json(`${backendUrl}/api/v1/document/list?user_id=1&order=id%20desc`, { token });
  const documentId = (list.body.document as { id: number }[])[0]!.id;
  const deadline = Date.now() + 120_000 + pages * 1_000;
  for (;;) {
    const doc = await json(`${backendUrl}/api/v1/document?id=${documentId}`, { token });
    if (doc.body.status === 2 && doc.body.pages === pages) break;
    if (doc.body.status === 3 || Date.now() > deadline)
      throw new Error(`the benchmark document did not convert: ${JSON.stringify(doc.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { categoryId, documentId, token };
}

// In the page, before any script of the site: the moment the first page image is painted
// (its load, then the next frame) and the largest contentful paint, both from navigation start.
const PROBE = `
window.__firstPage = new Promise((resolve) => {
  const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
  const watch = (img) => (img.complete && img.naturalWidth > 0 ? painted() : img.addEventListener('load', painted, { once: true }));
  new MutationObserver((_, observer) => {
    const img = document.querySelector('img[alt="第 1 页"]');
    if (img) { observer.disconnect(); watch(img); }
  }).observe(document, { subtree: true, childList: true });
});
window.__lcp = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

async function measureLoad(browser: Browser, url: string): Promise<Load> {
  const { context, page, cdp, finished, navigationAt } = await openPhoneVisit(browser, PROBE);
  try {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    let pageAnsweredAt: number | undefined;
    let imageRequestedAt: number | undefined;
    cdp.on('Network.responseReceived', (event) => {
      if (pageAnsweredAt === undefined && event.type === 'Document') pageAnsweredAt = event.timestamp;
    });
    cdp.on('Network.requestWillBeSent', (event) => {
      if (imageRequestedAt === undefined && event.request.url.includes('/view/page/'))
        imageRequestedAt = event.timestamp;
    });
    await page.goto(url, { waitUntil: 'commit' });
    const firstPageMs = await page.evaluate(() => (window as unknown as { __firstPage: Promise<number> }).__firstPage);
    // The browser reports the largest paint a little after it (later still when the page paints before the app runs).
    await page
      .waitForFunction(() => (window as unknown as { __lcp: number }).__lcp > 0, null, { timeout: 5_000 })
      .catch(() => undefined);
    const lcpMs = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
    const origin = navigationAt() ?? 0;
    const before = finished
      .map((f) => ({
        url: f.url.replace(url.slice(0, url.indexOf('/', 8)), ''),
        bytes: f.bytes,
        endMs: (f.at - origin) * 1000,
      }))
      .filter((f) => f.endMs <= firstPageMs)
      .sort((a, b) => a.endMs - b.endMs);
    return {
      firstPageMs,
      lcpMs,
      bytesBefore: before.reduce((sum, f) => sum + f.bytes, 0),
      requestsBefore: before.length,
      pageAnsweredMs: pageAnsweredAt === undefined ? undefined : (pageAnsweredAt - origin) * 1000,
      imageRequestedMs: imageRequestedAt === undefined ? undefined : (imageRequestedAt - origin) * 1000,
      resources: before,
    };
  } finally {
    await context.close();
  }
}

export async function readerBenchmark(options: ReaderBenchOptions): Promise<void> {
  ensureWebBuild();
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-reader-'));
  const started: Started[] = [];
  let browser: Browser | undefined;
  try {
    const backend = await startBackendProcess(dir, ADMIN_PASSWORD);
    started.push(backend);
    const gateway = await startGateway(backend.url, dir);
    started.push(gateway);
    const { categoryId, documentId } = await publishDocument(backend.url);
    const url = `${gateway.url}/library/${categoryId}/${documentId}`;
    browser = await launchChromium(['--disable-quic']);
    // One warm-up load (the servers' caches, the browser's start), then the measured ones.
    await measureLoad(browser, url);
    const loads: Load[] = [];
    for (let round = 0; round < options.rounds; round++) loads.push(await measureLoad(browser, url));

    heading('7. Reader: the first page of a 20-page document on slow 4G');
    console.log(
      `Chromium ${browser.version()} (playwright-core), 390×844 phone viewport, DevTools "Slow 4G" (562.5 ms, 1.44 Mbit/s down) and a ${CPU_SLOWDOWN}× CPU slowdown, ` +
        `a fresh profile per load; ${options.rounds} loads after a warm-up, medians (range). The document: ${PAGES} pages of Chinese text, gzip SVG pages.\n`,
    );
    const range = (values: number[], format: (n: number) => string) =>
      `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
    const firstPage = loads.map((l) => l.firstPageMs);
    console.log(
      table(
        ['figure', 'value'],
        [
          ['first page image painted, ms', range(firstPage, ms)],
          [
            'largest contentful paint, ms',
            range(
              loads.map((l) => l.lcpMs),
              ms,
            ),
          ],
          [
            'bytes downloaded before it, KiB',
            range(
              loads.map((l) => l.bytesBefore),
              kib,
            ),
          ],
          [
            'requests finished before it',
            range(
              loads.map((l) => l.requestsBefore),
              String,
            ),
          ],
          ['MOREDOC first paint (reference), ms', ms(MOREDOC_FIRST_PAINT_MS)],
        ],
      ),
    );
    console.log('\nEach load: the page, the first page image and their paint, ms from navigation start:\n');
    console.log(
      table(
        ['load', 'page (HTML) answered', 'done', 'first page image asked', 'done', 'painted', 'requests before'],
        loads.map((l, i) => {
          const doneAt = (match: (url: string) => boolean) => l.resources.find((r) => match(r.url))?.endMs;
          const at = (value: number | undefined) => (value === undefined ? '—' : ms(value));
          return [
            String(i + 1),
            at(l.pageAnsweredMs),
            at(doneAt((u) => u.startsWith('/library/'))),
            at(l.imageRequestedMs),
            at(doneAt((u) => u.startsWith('/view/page/'))),
            ms(l.firstPageMs),
            String(l.requestsBefore),
          ];
        }),
      ),
    );
    const typical = [...loads].sort((a, b) => a.firstPageMs - b.firstPageMs)[Math.floor(loads.length / 2)]!;
    console.log('\nWhat the median load fetched before the first page was painted:\n');
    console.log(
      table(
        ['resource', 'KiB', 'done at ms'],
        typical.resources.map((r) => [r.url.length > 70 ? `${r.url.slice(0, 67)}…` : r.url, kib(r.bytes), ms(r.endMs)]),
      ),
    );
    const achieved = median(firstPage) / MOREDOC_FIRST_PAINT_MS;
    console.log(
      `\n- first page ÷ MOREDOC's first paint: **${ratio(median(firstPage), MOREDOC_FIRST_PAINT_MS)}** (goal < ${GOAL}×: ${achieved < GOAL ? 'met' : 'not met'})`,
    );
  } finally {
    await browser?.close();
    for (const process of started.reverse()) await process.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
