// What people see while the backend's engines are away (decision 118): a site started while its
// S3 bucket is away (the backend's stand-in answers every call 503), a member's page while
// PostgreSQL is stopped under a running site, one call a proxy answers with its own 503, and a
// remote backend (BACKEND_URL) that closes the connection of a call without answering.
// Real engines where the test is about them: the S3 test server stopped on its port, a
// PostgreSQL cluster of this file's own paused and resumed (tests/helpers/postgres.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { startEmbeddedBackend, type EmbeddedBackend } from '../../gateway/embedded-backend';
import { createDatabase, postgresMissing, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { recordedConversions } from '../helpers/recorded-conversions';
import { startS3, type TestS3 } from '../helpers/s3';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import {
  appTookOver,
  gatewayToken,
  openInApp,
  openPage,
  setTokenCookie,
  sharedBrowser,
  useSiteInBrowser,
} from './browser';

const NOTICE = '服务暂时不可用，请稍后再试';

/** The page's text has no English word (a status text, an error's name) and no stack. */
async function noEnglish(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/[A-Za-z]{3,}/);
}

/** Waits until the page's code has run and asked all it asks: what is on show then stays. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

describe('a site started while its S3 bucket is away', () => {
  // The worker's Chromium, without a site of useSiteInBrowser's: this describe makes its own.
  let browser: Browser;
  let s3: TestS3;
  let backend: EmbeddedBackend;
  let gateway: FastifyInstance;
  let dataDir: string;
  let url: string;
  beforeAll(async () => {
    browser = await sharedBrowser();
    s3 = await startS3();
    await s3.pause();
    dataDir = await mkdtemp(join(tmpdir(), 'moredoc-unavailable-'));
    const env = {
      ...CAPTCHAS_OFF,
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      DATA_DIR: dataDir,
      // tries the start again after 0.1 s, 0.2, then every 0.5 s, not 1, 2 and 5 s: `backend.ready` after the resume
      START_RETRY_MS: '100',
      ...s3.env,
    };
    backend = await startEmbeddedBackend(env, undefined, { converter: recordedConversions });
    gateway = buildGateway(
      { ...loadGatewayConfig(env), backendUrl: undefined, webDist: inject('webDist') },
      {
        viewFiles: backend.viewFiles,
        dispatcher: backend.dispatcher,
        backendChanges: backend.backendChanges,
        sessionChanges: backend.sessionChanges,
      },
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await backend?.close();
    await s3?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a page that says so, in Chinese, at 390 px too, and its 重试 opens the page once the bucket is back', async () => {
    expect(backend.waited).toBe(true);
    // The first screen the gateway serves says it, not an empty shell with no site in it.
    const served = await fetch(`${url}/library?page=1`);
    expect(served.status).toBe(503);
    expect(served.headers.get('cache-control')).toBe('no-store');
    const html = await served.text();
    expect(html).toContain(`<h1>${NOTICE}</h1>`);
    expect(html).toContain('href="/library?page=1"');
    expect(html).not.toContain('id="start-data"');

    const { page, context, errors } = await openPage(browser, url);
    try {
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto('/library?page=1');
      await settled(page);
      // The app's code has run and left the notice: no site without a name, no 加载失败 in each part.
      await page.getByRole('heading', { name: NOTICE }).waitFor();
      const retry = page.getByRole('link', { name: '重试' });
      const box = await retry.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await noEnglish(page);

      await s3.resume();
      await backend.ready;
      await retry.click();
      await page.waitForURL((at) => at.pathname === '/library' && at.search === '?page=1');
      await appTookOver(page);
      await page.getByRole('heading', { name: '文库资料', level: 1 }).waitFor();
      expect(await page.getByRole('heading', { name: NOTICE }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(postgresMissing() !== null)('PostgreSQL stopped under a running site', () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    databaseUrl = await createDatabase(cluster.url);
  });
  afterAll(async () => {
    await cluster?.resume?.().catch(() => undefined);
    await cluster?.stop();
  });
  const site = useSiteInBrowser({ env: () => ({ DATABASE_URL: databaseUrl }) });

  it('a logged-in admin is told the service is unavailable, not sent to the login page; 重试 opens the dashboard once it is back', async () => {
    const token = await gatewayToken(site.url, 'admin', site.adminPassword);
    const { page, context } = await site.visit();
    await setTokenCookie(context, site.url, token);
    await cluster.pause!();
    let resumed = false;
    try {
      await page.goto('/admin');
      await settled(page);
      expect(new URL(page.url()).pathname).toBe('/admin');
      await page.getByRole('heading', { name: NOTICE }).waitFor();
      expect(await page.getByLabel('用户名').count()).toBe(0);
      await noEnglish(page);

      await cluster.resume!();
      resumed = true;
      await expect
        .poll(async () => (await fetch(`${site.url}/readyz`)).status, { timeout: 30_000, interval: 250 })
        .toBe(200);
      await page.getByRole('link', { name: '重试' }).click();
      await appTookOver(page);
      // Still logged in: the cookie was kept meanwhile.
      await page.getByRole('heading', { name: '控制面板' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin');
    } finally {
      if (!resumed) await cluster.resume!();
    }
  }, 90_000);

  it("a visitor's first screen says the backend's reason where the list goes, the page a 503; 重试 shows the list once it is back", async () => {
    // The settings were had before: the page is made, without its list.
    expect((await fetch(`${site.url}/auth/login`)).status).toBe(200);
    await cluster.pause!();
    let resumed = false;
    try {
      const served = await fetch(`${site.url}/library?page=1`);
      expect(served.status).toBe(503);
      const html = await served.text();
      const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
      expect(main).toContain('数据库暂时不可用，请稍后再试');
      expect(main).toContain('重试');
      expect(main).not.toContain('semi-skeleton');

      const page = await site.open();
      await page.goto('/library?page=1');
      await appTookOver(page);
      await settled(page);
      const list = page.locator('main');
      await list.getByText('数据库暂时不可用，请稍后再试').waitFor();
      // (the format filters are named PDF, Word…: no English word of a failure)
      expect(await list.innerText()).not.toMatch(/503|Service|Unavailable|Error/);

      await cluster.resume!();
      resumed = true;
      await expect
        .poll(async () => (await fetch(`${site.url}/readyz`)).status, { timeout: 30_000, interval: 250 })
        .toBe(200);
      await list.getByRole('button', { name: '重试' }).click();
      await expect.poll(async () => list.getByText('数据库暂时不可用，请稍后再试').count()).toBe(0);
      expect(await list.getByRole('button', { name: '重试' }).count()).toBe(0);
      // The page made once the backend is back is whole again.
      expect((await fetch(`${site.url}/library?page=1`)).status).toBe(200);
    } finally {
      if (!resumed) await cluster.resume!();
    }
  }, 90_000);
});

describe('one call a proxy answers with its own 503', () => {
  const site = useSiteInBrowser();

  it('the list says the service is unavailable in Chinese, and 重试 shows the list once the call answers', async () => {
    const page = await site.open();
    await page.goto('/');
    await appTookOver(page);
    let away = true;
    await page.route('**/api/v1/document/list?*', (route) =>
      away
        ? route.fulfill({
            status: 503,
            contentType: 'text/html',
            body: '<html><body><h1>503 Service Temporarily Unavailable</h1><hr>nginx</body></html>',
          })
        : route.continue(),
    );
    await openInApp(page, '/library?page=2');
    const main = page.locator('main');
    await main.getByText(NOTICE).waitFor();
    expect(await main.innerText()).not.toMatch(/503|Service|Unavailable/);

    away = false;
    await main.getByRole('button', { name: '重试' }).click();
    await expect.poll(async () => main.getByText(NOTICE).count()).toBe(0);
    expect(await main.getByRole('button', { name: '重试' }).count()).toBe(0);
  });
});

describe('a remote backend that closes the connection of a call without answering', () => {
  // The gateway reaches the backend over HTTP (as with BACKEND_URL) through this proxy, which
  // closes the connection of the calls `cut` picks instead of passing them on.
  let cut: (path: string) => boolean = () => false;
  let cuts = 0;
  let reachBackend: (url: string) => void = () => undefined;
  const backendUrl = new Promise<string>((resolve) => (reachBackend = resolve));
  let proxy: Server;
  let proxyUrl = '';
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      if (cut(req.url ?? '')) {
        cuts += 1;
        req.socket.destroy();
        return;
      }
      void backendUrl.then((target) => {
        const onward = httpRequest(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        onward.on('error', () => res.destroy());
        req.pipe(onward);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  const site = useSiteInBrowser({ site: () => ({ backend: 'remote', gateway: { backendUrl: proxyUrl } }) });
  beforeAll(() => reachBackend(site.backendUrl));
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it("the list says the site's Chinese reason, not English and not a blank, and 重试 shows the list once it answers", async () => {
    const page = await site.open();
    await page.goto('/');
    await appTookOver(page);
    cut = (path) => path.startsWith('/api/v1/document/list?');
    await openInApp(page, '/library?page=2');
    const main = page.locator('main');
    await main.getByText('后端服务暂时不可用，请稍后再试').waitFor();
    await settled(page);
    expect(cuts).toBeGreaterThan(0);
    const failure = main.getByRole('alert');
    expect(await failure.innerText()).toMatch(/^加载失败\s*后端服务暂时不可用，请稍后再试\s*重试$/);
    expect(await main.innerText()).not.toMatch(/502|Bad Gateway|Error|fetch/i);

    cut = () => false;
    await main.getByRole('button', { name: '重试' }).click();
    await expect.poll(async () => main.getByText('后端服务暂时不可用，请稍后再试').count()).toBe(0);
    expect(await main.getByRole('button', { name: '重试' }).count()).toBe(0);
  });
});
