// playwright-core driving the system Chromium (never a downloaded browser), one fresh
// profile per launch, and the site + browser + visit lifecycle the browser suites share.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { printBackendErrorsOnFailure } from '../helpers/backend';
import { recordedConversions } from '../helpers/recorded-conversions';
import { startSite, type Site, type SiteOptions } from '../helpers/site';

/**
 * Debian's old headless shell (`chromium-headless-shell`, the same Blink without the browser's
 * own windows) where installed, as `.ci/run` does: the full browser in headless mode draws a
 * window of WebUI (tabs, toolbar) in a renderer of its own for every page; on the shell the e2e
 * project took 0.56× the CPU. Else the full `chromium`; CHROMIUM_PATH names another.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

/**
 * Text puts box edges at fractions of a pixel, a little differently with another font or
 * version of it (global-setup.ts names the expected ones): an edge checked against another is
 * allowed this much past it.
 */
export const EDGE_SLACK_PX = 1;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The site's pages send Cross-Origin-Opener-Policy: same-origin, so a context's first navigation
  // leaves the renderer of its about:blank for a new one (0.11 cpu-s each). Under this limit the
  // navigation takes that renderer over; contexts still never share one.
  '--renderer-process-limit=1',
];

function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}

let workerBrowser: Promise<Browser> | undefined;

/**
 * The worker's Chromium: launched for the first browser file it runs and kept for the next ones
 * (the e2e project runs its files without isolation, one after the other in each worker), again
 * when it is gone. A launch with its first page takes about 1 s of CPU. Each file still has
 * contexts of its own, closed when it ends; playwright-core ends the browser with the worker.
 */
export async function sharedBrowser(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerBrowser = launchBrowser();
  return workerBrowser;
}

export interface Visit {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, which a test should expect to stay empty. */
  errors: string[];
}

export async function openPage(browser: Browser, baseURL: string): Promise<Visit> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/**
 * Waits until the app has replaced the gateway's first screen (its elements then carry React's
 * fiber): an element of the served screen read in between may be detached under the reading,
 * and a detached element has no computed style.
 */
export async function appTookOver(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const first = document.getElementById('root')?.firstElementChild;
    return !!first && Object.keys(first).some((key) => key.startsWith('__reactFiber'));
  });
}

/**
 * Client-side navigation, as a link inside the SPA does it: the history API and the router's own listener, no page load.
 * It first waits for the app's RouteChange (`data-route-change`, web/src/app/route-change.tsx): on a screen the gateway
 * does not draw (the admin's), `appTookOver` already sees the router's loading screen, drawn by React while the screen's
 * code comes, and a RouteChange first mounted after a move takes the move's screen for the loaded one, never naming it
 * in `data-location` (`screenDrawn` then waits in vain).
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.waitForFunction(() => {
    const region = document.querySelector('[data-route-change]');
    return !!region && Object.keys(region).some((key) => key.startsWith('__reactFiber'));
  });
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits until the screen drawn is the one of the address the browser shows (after a redirect,
 * the one it went on to): the router keeps the screen before on view until it has the next
 * one's code, and React draws it later still on a busy machine. RouteChange names the address
 * whose screen it committed in `data-location`, from the first move on.
 */
export async function screenDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>('[data-location]')].some(
      (region) => region.dataset.location === window.location.pathname + window.location.search,
    ),
  );
}

/**
 * Resolves once the page has drawn two frames and then gone idle (`requestIdleCallback`): the
 * tasks queued before, an answer's handling and what it sets off (a render, the next request),
 * have run, and so has what a frame sets off (an image that came into sight asked for).
 */
async function pageIdle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => resolve()))),
      ),
  );
}

/** How long `openInApp` waits for the screen's requests to be answered and the page to go idle. */
const SETTLE_TIMEOUT_MS = 30_000;

/**
 * Opens `path` inside the app (`navigateInApp`), waits until its screen is drawn (`screenDrawn`),
 * then until the screen's requests, its data and any code it asks for, are answered: none in
 * flight, and none started or ended while the page went idle twice over (`pageIdle`), so that an
 * answer's handling has drawn its data or asked for the next. No clock: the half second without
 * requests waited before (as Playwright's 'networkidle') cost each move 0.5 s, and returned early
 * when the page took longer than that to handle an answer. A screen reached so costs the browser
 * about a third of a page load.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  // The requests started since the navigation: one of the screen before, answered meanwhile, is not counted.
  const inFlight = new Set<Request>();
  let changes = 0;
  const started = (request: Request) => {
    inFlight.add(request);
    changes += 1;
  };
  const ended = (request: Request) => {
    if (inFlight.delete(request)) changes += 1;
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await navigateInApp(page, path);
    await screenDrawn(page);
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let quiet = 0;
    while (quiet < 2) {
      await expect
        .poll(() => inFlight.size === 0 || [...inFlight].map((r) => r.url()), {
          message: `${path}: requests still in flight`,
          interval: 50,
          timeout: Math.max(deadline - Date.now(), 1),
        })
        .toBe(true);
      const seen = changes;
      await pageIdle(page);
      quiet = changes === seen ? quiet + 1 : 0;
      if (Date.now() > deadline) throw new Error(`${path}: requests kept starting for ${SETTLE_TIMEOUT_MS} ms`);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

/**
 * Logs `username` in through the gateway and answers the token of its cookie: calls made with
 * it through the gateway (config writes among them) drop what the gateway keeps for pages.
 */
export async function gatewayToken(siteUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${siteUrl}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const token = /(?:^|;\s*)token=([^;]+)/.exec(res.headers.getSetCookie().join('; '))?.[1];
  if (res.status !== 200 || !token) throw new Error(`login ${username}: ${res.status}`);
  return token;
}

/** Fills the login form on screen (username and password) and submits it. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

/** Logs `username` in through /auth/login and waits to land on `then` (its path). */
export async function logIn(page: Page, username: string, password: string, then: string): Promise<void> {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(then)}`);
  await submitLogin(page, username, password);
  await page.waitForURL((url) => url.pathname === then.split('?')[0]);
}

/** Puts a login token in the context's cookie, where the gateway's login leaves it: the context is logged in. */
export async function setTokenCookie(context: BrowserContext, siteUrl: string, token: string): Promise<void> {
  await context.addCookies([{ name: 'token', value: token, url: siteUrl }]);
}

/**
 * Logs `username` in through the gateway's login call made from the context itself (its request
 * API shares the context's cookies): the cookie is the one the gateway sets, its attributes
 * (SameSite, HttpOnly) included, with no page load, where a test is about what the cookie does.
 */
export async function logInByApi(
  context: BrowserContext,
  siteUrl: string,
  username: string,
  password: string,
): Promise<void> {
  const res = await context.request.post(`${siteUrl}/api/v1/user/login`, { data: { username, password } });
  if (res.status() !== 200) throw new Error(`login ${username}: ${res.status()}`);
}

/**
 * Opens `then` (its path) logged in as `username` without the login form: the token of a login
 * through the gateway's API in the context's cookie, as the form leaves it. The form has tests of
 * its own (spa.test.ts, site-switches.test.ts); this costs a page load less.
 */
export async function logInByCookie(
  page: Page,
  siteUrl: string,
  username: string,
  password: string,
  then: string,
): Promise<void> {
  const token = await gatewayToken(siteUrl, username, password);
  await setTokenCookie(page.context(), siteUrl, token);
  await page.goto(then);
  await appTookOver(page);
}

/**
 * Logs out through the user menu and waits for the home page as a visitor. The logout call and
 * the home page's code may take a while on a loaded machine: up to a minute, not the 30 s default.
 */
export async function logOut(page: Page): Promise<void> {
  const requests: string[] = [];
  const onRequest = (request: { method(): string; url(): string }) =>
    requests.push(`${request.method()} ${request.url()}`);
  page.on('request', onRequest);
  try {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 });
    await page.getByRole('link', { name: '登录' }).waitFor({ timeout: 60_000 });
  } catch (error) {
    // What the page shows and asked for, so that a failure on a loaded machine can be read.
    const menu = await page.getByRole('menuitem', { name: '退出登录' }).count();
    const text = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 300);
    throw new Error(
      `logOut: at ${page.url()}, 退出登录 entries shown: ${menu}, requests since the click: ${requests.join(', ') || 'none'}; page: ${text}`,
      { cause: error },
    );
  } finally {
    page.off('request', onRequest);
  }
}

/** A window's size, as Playwright's viewport. */
export interface WindowSize {
  width: number;
  height: number;
}

/**
 * A visitor's context and page kept across a file's tests, where they need no fresh one
 * (`visit()`'s is closed after each test): a context and a page load spared per test that would
 * otherwise open its own. The first call opens it; with a `path`, the first call loads it (and
 * waits for the app to take over, `appTookOver`), the next reach it inside the app (`openInApp`).
 * Its page errors are checked after each test, as a visit's; it closes with the file's contexts.
 * Call it at the top of the file.
 */
export function keptVisit(site: SiteInBrowser): (path?: string) => Promise<Visit> {
  let kept: Promise<Visit> | undefined;
  let loaded = false;
  afterEach(async () => {
    if (kept) expect((await kept).errors.splice(0)).toEqual([]);
  });
  return async (path) => {
    const visit = await (kept ??= openPage(site.browser, site.url));
    if (path && !loaded) {
      await visit.page.goto(path);
      await appTookOver(visit.page);
    } else if (path) await openInApp(visit.page, path);
    loaded ||= !!path;
    return visit;
  };
}

/**
 * The admin's page kept across a file's tests (`keptVisit`): the first call loads `path` logged in
 * by the cookie (`logInByCookie`), the next reach it inside the app (`openInApp`, which waits for
 * the screen's data), or load it again when it is the screen shown already (for rows made since).
 * Each call sets the window to `size` (a visit's 1280×900 by default). Call it at the top of the file.
 */
export function keptAdminPage(site: SiteInBrowser): (path: string, size?: WindowSize) => Promise<Page> {
  const kept = keptVisit(site);
  let loggedIn = false;
  return async (path, size = { width: 1280, height: 900 }) => {
    const { page } = await kept();
    await page.setViewportSize(size);
    if (!loggedIn) {
      await logInByCookie(page, site.url, 'admin', site.adminPassword, path);
      loggedIn = true;
    } else if (page.url() === new URL(path, site.url).href) {
      await page.reload();
      await appTookOver(page);
    } else await openInApp(page, path);
    return page;
  };
}

export interface SiteInBrowser {
  /** the gateway, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** the embedded backend behind it, for fixtures made through the API directly */
  readonly backendUrl: string;
  readonly dataDir: string;
  readonly adminPassword: string;
  readonly browser: Browser;
  /** A fresh context and page on the site; after the test its page errors must be empty and it is closed. */
  visit(): Promise<Visit>;
  /** The page of a new `visit()`. */
  open(): Promise<Page>;
  /**
   * The page of a new `visit()`, logged in as the admin (`logInByCookie`) and landed on `path`;
   * without a path, logged in on no screen yet (the admin's calls through `page.request`, a screen
   * loaded later), which spares a page load.
   */
  adminPage(path?: string): Promise<Page>;
}

/**
 * One site for a test file, on the worker's Chromium, started in `beforeAll` and closed in
 * `afterAll`. `env` and `site` may be functions for values known only once an earlier `beforeAll`
 * has run (a stub provider's URL). The browser tests are about the site, not the converter:
 * its conversions are the recorded ones (tests/helpers/recorded-conversions.ts).
 */
export function useSiteInBrowser(
  opts: {
    env?: () => Record<string, string>;
    /** How the gateway reaches the backend and its settings (startSite's), e.g. a remote backend. */
    site?: () => Pick<SiteOptions, 'backend' | 'gateway'>;
  } = {},
): SiteInBrowser {
  let site: Site | undefined;
  let browser: Browser | undefined;
  const visits: Visit[] = [];

  printBackendErrorsOnFailure();
  beforeAll(async () => {
    [site, browser] = await Promise.all([
      startSite({
        ...opts.site?.(),
        env: opts.env?.(),
        webDist: inject('webDist'),
        build: { converter: recordedConversions },
      }),
      sharedBrowser(),
    ]);
  });
  afterAll(async () => {
    // What the file opened itself (site.browser.newContext) included.
    if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
    await site?.close();
  });
  afterEach(async () => {
    const finished = visits.splice(0);
    try {
      for (const visit of finished) expect(visit.errors).toEqual([]);
    } finally {
      await Promise.all(finished.map((visit) => visit.context.close()));
    }
  });

  const started = () => {
    if (!site || !browser)
      throw new Error('useSiteInBrowser: the site starts in beforeAll; use it inside hooks and tests');
    return { site, browser };
  };
  const visit = async () => {
    const running = started();
    const opened = await openPage(running.browser, running.site.url);
    visits.push(opened);
    return opened;
  };
  return {
    get url() {
      return started().site.url;
    },
    get backendUrl() {
      return started().site.backendUrl;
    },
    get dataDir() {
      return started().site.dataDir;
    },
    get adminPassword() {
      return started().site.adminPassword;
    },
    get browser() {
      return started().browser;
    },
    visit,
    open: async () => (await visit()).page,
    adminPage: async (path?: string) => {
      const { page, context } = await visit();
      const { url, adminPassword } = started().site;
      if (path) await logInByCookie(page, url, 'admin', adminPassword, path);
      else await setTokenCookie(context, url, await gatewayToken(url, 'admin', adminPassword));
      return page;
    },
  };
}
