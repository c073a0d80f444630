// What the benchmarks that drive Chromium share: the web build they serve (made when missing or
// older than its sources, as `npm start` does), Debian's Chromium, a gateway in front of a
// backend started for the benchmark, and a phone-class visit on a slow connection.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { webBuildNeeded } from '../../scripts/start';
import { REPO_ROOT, startNodeProcess, type Started } from './processes';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const WEB_DIST = join(REPO_ROOT, 'web/dist');

/** The web build the benchmarks serve: (re)built when missing or older than its sources. */
export function ensureWebBuild(): void {
  const reason =
    webBuildNeeded(REPO_ROOT) ?? (existsSync(join(WEB_DIST, '.vite/manifest.json')) ? undefined : 'no Vite manifest');
  if (!reason) return;
  console.error(`building web/dist first (${reason}): npm run build:web`);
  const build = spawnSync('npm', ['run', 'build:web'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('npm run build:web failed');
}

/** Headless Chromium, with `args` beside the usual ones. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', ...args],
  });
}

/** The gateway serving the web build in front of `backendUrl`. */
export function startGateway(backendUrl: string, dir: string): Promise<Started> {
  return startNodeProcess(
    'gateway',
    'gateway.ts',
    { LOG_LEVEL: 'warn', BACKEND_URL: backendUrl, BENCH_WEB_DIST: WEB_DIST },
    dir,
  );
}

/** Chrome DevTools' "Slow 4G": 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up. */
export const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
export const CPU_SLOWDOWN = 4;

/** A response of a visit, finished: its URL, its bytes on the wire and when (DevTools' clock, seconds). */
export interface FinishedResponse {
  url: string;
  bytes: number;
  at: number;
}

export interface PhoneVisit {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** The responses finished so far, in the order they finished. */
  finished: FinishedResponse[];
  /** When the page's own request was sent (DevTools' clock, seconds), once it was. */
  navigationAt: () => number | undefined;
}

/**
 * A fresh profile of a phone (390×844, zh-CN, touch) on "Slow 4G" with a 4× CPU slowdown, with
 * `initScript` run in the page before any script of the site. Close its `context` when done.
 */
export async function openPhoneVisit(browser: Browser, initScript: string): Promise<PhoneVisit> {
  const context = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(initScript);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const requested = new Map<string, string>();
    const finished: FinishedResponse[] = [];
    let navigationAt: number | undefined;
    cdp.on('Network.requestWillBeSent', (event) => {
      requested.set(event.requestId, event.request.url);
      if (navigationAt === undefined && event.type === 'Document') navigationAt = event.timestamp;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const url = requested.get(event.requestId);
      if (url !== undefined) finished.push({ url, bytes: event.encodedDataLength, at: event.timestamp });
    });
    return { context, page, cdp, finished, navigationAt: () => navigationAt };
  } catch (error) {
    await context.close();
    throw error;
  }
}
