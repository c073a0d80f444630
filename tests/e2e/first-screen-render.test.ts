// The real first-screen build (web/dist/.ssr of the production build) through the gateway's
// renderer thread, without a browser: which pages it renders, what it leaves to the SPA, and
// that a component failing on the data it is given leaves the page to the SPA.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIRST_SCREEN_MODULE, loadFirstScreen, type FirstScreenRenderer } from '../../gateway/first-screen';
import { searchCall, searchRequest, searchState } from '../../shared/page-data';
import type { StartData } from '../../shared/types/start-data';

const WEB_DIST = inject('webDist');
const warnings: string[] = [];
const log = {
  info: () => undefined,
  warn: (_data: unknown, message: string) => warnings.push(message),
} as unknown as FastifyBaseLogger;

const START: StartData = {
  settings: { system: { sitename: '测试文库' }, footer: {}, security: {}, display: {} },
  navigation: [],
  categories: [{ id: 1, title: '教育资料', type: 0, parent_id: 0, enable: true } as StartData['categories'][number]],
};
const DOCUMENT = {
  id: 5,
  title: '城市图书馆的一天',
  status: 2,
  pages: 3,
  preview: 2,
  attachment: { hash: 'a1b2c3' },
  category_id: [1],
};
const withDocument = (data: unknown): StartData => ({
  ...START,
  routeData: [{ key: ['document', 'detail', 5], data }],
});

let renderer: FirstScreenRenderer;
beforeAll(async () => {
  // The 1 s limit of a render is tests/gateway/first-screen.test.ts's subject: here a render
  // that a busy machine makes late (the thread loads a 6 MB module first) is waited for, as
  // a render past the limit ends the thread and the next render waits for a new one.
  const loaded = await loadFirstScreen(WEB_DIST, log, 60_000);
  if (!loaded) throw new Error('web/dist has no first-screen build');
  renderer = loaded;
});
afterAll(async () => {
  await renderer?.close();
});

describe('the first-screen build', () => {
  it("renders the home with the site's name, and no script", async () => {
    const screen = await renderer.render('http://localhost/', START);
    expect(screen?.html).toContain('测试文库');
    expect(screen?.html).toContain('class="app-header');
    expect(screen?.html).not.toMatch(/<script/);
    expect(screen?.head).toBe('');
  });

  it("renders the reader with page 1, links the reader's styles, and leaves the lazy comments as their fallback", async () => {
    const screen = await renderer.render('http://localhost/library/1/5', withDocument(DOCUMENT));
    expect(screen?.html).toContain('<h1');
    expect(screen?.html).toContain('城市图书馆的一天');
    expect(screen?.html).toMatch(/<img[^>]*alt="第 1 页"/);
    // The comments' code comes later in the browser: the server shows what the browser shows until then,
    // under their anchor, which a link to them (`#comments`) reaches before the app has started.
    expect(screen?.html).toMatch(/<section class="app-comments" id="comments"[^>]*aria-busy="true"/);
    expect(screen?.head).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/DocumentPage-[\w-]+\.css">/);
    expect(screen?.head).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/DocumentPage-[\w-]+\.js">/);
  });

  it('renders the search results, a hit on a page linking the reader there with the words the server marked', async () => {
    const request = searchRequest(searchState({ wd: '图书馆' }), 0);
    const hit = { id: 5, title: '城市图书馆的一天', snippet: '清晨七点，城市<em>图书馆</em>的大门', snippet_page: 2 };
    const screen = await renderer.render(`http://localhost/search?wd=${encodeURIComponent('图书馆')}`, {
      ...START,
      routeData: [{ key: searchCall(request).key, data: { total: 1, document: [hit] } }],
    });
    expect(screen?.html).toContain('城市图书馆的一天');
    expect(screen?.html).toContain(`href="/library/1/5?page=2&amp;wd=${encodeURIComponent('图书馆')}"`);
  });

  it.each([
    ['an auth page', 'http://localhost/login', START],
    ['the member area', 'http://localhost/member', START],
    ['the admin', 'http://localhost/admin/dashboard', START],
    ['a path that is no route', 'http://localhost/no/such/page', START],
    [
      'a logged-in visitor',
      'http://localhost/',
      { ...START, user: { id: 1, username: 'member' } as StartData['user'] },
    ],
  ])('renders nothing for %s (the SPA renders those itself)', async (_label, url, start) => {
    expect(await renderer.render(url, start)).toBeUndefined();
  });

  it("renders pages side by side each from its own start data: the routes are made once, each render's loaders read its own", async () => {
    const titles = ['城市图书馆的一天', '乡村学校的早晨', '海边灯塔的夜晚', '山间小路的黄昏'];
    const searches = titles.map((title, i) => {
      const wd = title.slice(0, 2);
      const request = searchRequest(searchState({ wd }), 0);
      const hit = { id: 10 + i, title, snippet: title, snippet_page: 1 };
      return renderer.render(`http://localhost/search?wd=${encodeURIComponent(wd)}`, {
        ...START,
        routeData: [{ key: searchCall(request).key, data: { total: 1, document: [hit] } }],
      });
    });
    // The guard reads the site's switches from the render's own settings: a closed site's page
    // (the SPA's 站点已关闭) is not rendered, an open one beside it is.
    const closed = { ...START, settings: { ...START.settings, security: { is_close: true } } };
    const homes = [START, closed, START, closed].map((start) => renderer.render('http://localhost/', start));
    const screens = await Promise.all(searches);
    screens.forEach((screen, i) => {
      expect(screen?.html).toContain(titles[i]);
      for (const other of titles.filter((_, j) => j !== i)) expect(screen?.html).not.toContain(other);
    });
    expect((await Promise.all(homes)).map((screen) => screen !== undefined)).toEqual([true, false, true, false]);
  });

  it('keeps nothing of a page once it is rendered: the lazy parts, left as their fallback, hold no render', async () => {
    // The build's module in this process, where its heap can be weighed after a full collection.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { renderFirstScreen } = (await import(pathToFileURL(join(WEB_DIST, FIRST_SCREEN_MODULE)).href)) as {
      renderFirstScreen: (url: string, start: StartData) => Promise<{ html: string } | undefined>;
    };
    const renderPages = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const screen = await renderFirstScreen('http://localhost/library/1/5', withDocument(DOCUMENT));
        expect(screen?.html).toMatch(/<section class="app-comments"[^>]*aria-busy="true"/);
        // As on the render thread: each page is a task of its own, what React schedules runs between them.
        await new Promise(setImmediate);
      }
    };
    const heapAfterCollection = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    await renderPages(50);
    const before = heapAfterCollection();
    await renderPages(400);
    // A page kept would be about 50 KB: 400 of them 20 MB.
    expect(heapAfterCollection() - before).toBeLessThan(8 * 1024 * 1024);
  });

  it('renders nothing when a component fails on the data it is given, and says so in the log', async () => {
    const before = warnings.length;
    expect(
      await renderer.render(
        'http://localhost/library/1/5',
        withDocument({ ...DOCUMENT, title: { text: DOCUMENT.title } }),
      ),
    ).toBeUndefined();
    expect(warnings.slice(before)).toEqual(['the first screen of a page could not be rendered']);
    // The thread goes on rendering.
    expect((await renderer.render('http://localhost/library/1/5', withDocument(DOCUMENT)))?.html).toContain(
      '城市图书馆的一天',
    );
  });
});
