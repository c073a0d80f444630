// The gateway's part of the first screen (gateway/first-screen.ts), with a stand-in for the
// build's web/dist/.ssr/entry-server.js: what it renders goes into #root for people with the
// screen's stylesheets and code in the head; crawlers keep their plain content; a page whose
// first screen fails or is late is served without it, and a render that never ends is aborted
// with its thread. The real renderer, in a real browser, is tested in tests/e2e/public-face.test.ts.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_MODULE, RENDERS_PER_THREAD } from '../../gateway/first-screen';
import { APP_CODE_LATEST_MS } from '../../gateway/image-first';
import { INLINE_IMAGE_MAX_BYTES } from '../../gateway/inline-image';
import { CRAWLER, FIXTURE_DIST, PERSON, send, startGateway, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

// Stands in for the SSR build: renders /library, fails on /search, holds /article?page=N (past
// any time limit) until the file 'release-article-N' is written beside .ssr/ (writing
// 'started-article-N' there when it starts), and tells on /hot
// how many renders its thread has made, how many of /article it has ended and which.
const RENDERER = `
import { existsSync, writeFileSync } from 'node:fs';
export const calls = [];
let libraryRenders = 0;
let articlesEnded = 0;
const pagesEnded = [];
const afterRender = { ticks: 0, immediates: 0 };
export async function renderFirstScreen(url, start) {
  calls.push(url);
  const path = new URL(url).pathname;
  if (path === '/search') throw new Error('a component failed');
  if (path === '/article') {
    const page = new URL(url).searchParams.get('page');
    writeFileSync(new URL('../started-article-' + page, import.meta.url), '');
    const release = new URL('../release-article-' + page, import.meta.url);
    while (!existsSync(release)) await new Promise((resolve) => setTimeout(resolve, 10));
    articlesEnded++;
    pagesEnded.push(page);
    return { html: '<p>late</p>', files: [] };
  }
  if (path === '/hot')
    return {
      html: '<p class="calls">' + calls.length + '</p><p class="ended">' + articlesEnded + '</p><p class="pages">' + pagesEnded.join(' ') + '</p>',
      files: [],
    };
  // What a render leaves to run after it (React's work, a stream's callbacks): how much of the
  // previous renders' has run by now.
  if (path === '/vip') {
    const done = '<p class="after">' + afterRender.ticks + ' ' + afterRender.immediates + '</p>';
    process.nextTick(() => afterRender.ticks++);
    setImmediate(() => afterRender.immediates++);
    return { html: done, files: [] };
  }
  // Which render this is: the test of kept pages counts them, and holds every render of
  // /library/1 but the first until it writes the file 'release' beside .ssr/.
  if (path === '/library/1') {
    const count = calls.length;
    if (++libraryRenders > 1) while (!existsSync(new URL('../release', import.meta.url))) await new Promise((resolve) => setTimeout(resolve, 10));
    return { html: '<p class="render">' + count + '</p>', files: [] };
  }
  const hash = { '/library/1/5': 'ab', '/library/1/6': 'cd', '/library/1/7': 'ef', '/library/1/8': '12', '/library/1/9': '34' }[path];
  if (hash)
    // With the preload React writes for an image of high priority.
    return {
      html: '<link rel="preload" as="image" href="/view/page/' + hash.repeat(16) + '/1.gzip.svg" fetchPriority="high"/>' +
        '<div class="reader"><img src="/view/page/' + hash.repeat(16) + '/1.gzip.svg" alt="第 1 页"></div>',
      files: ['src/pages/public/DocumentPage.tsx'],
    };
  return { html: '<div class="screen">' + start.settings.system.sitename + '的书库</div>', files: ['src/pages/public/LibraryPage.tsx'] };
}
`;

/** A first page with what a `data:` URL in an attribute must escape: `#`, `%`, `"`, `&`, line breaks. */
const FIRST_PAGE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n' +
  '<defs><path id="g1" d="M0 0h5v5z"/></defs>\r\n\t<use href="#g1" fill="#333"/>' +
  '<text y="9">100% &amp; 第一页 &lt;/body&gt;</text></svg>\n';

/** The build's stylesheets the reader's page uses, by file name. */
const STYLESHEETS: Record<string, string> = {
  'app-3f9a1c.css': '.app{color:red}',
  'Breadcrumbs-1.css': '.crumbs{margin:0}',
  'DocumentPage-1.css': '.reader img{width:100%}.quote::after{content:"</style>"}',
};

const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', imports: ['_vendor-1.js'], css: ['assets/index-1.css'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js', css: ['assets/vendor-1.css'] },
  '_Breadcrumbs-1.js': {
    file: 'assets/Breadcrumbs-1.js',
    imports: ['_vendor-1.js'],
    css: ['assets/Breadcrumbs-1.css'],
  },
  'src/pages/public/DocumentPage.tsx': {
    file: 'assets/DocumentPage-1.js',
    imports: ['_vendor-1.js', 'index.html', '_Breadcrumbs-1.js'],
    css: ['assets/DocumentPage-1.css'],
  },
  'src/pages/public/LibraryPage.tsx': {
    file: 'assets/LibraryPage-1.js',
    imports: ['_vendor-1.js', 'index.html', '_Breadcrumbs-1.js'],
    css: ['assets/LibraryPage-1.css'],
  },
};

/**
 * How long a visitor's page is kept here: longer than any test, which moves the clock to see it end (within the start
 * data's 60 s).
 */
const TTL_MS = 30_000;

/** The first-screen time limit of the gateway that tests a late render (the renderer holds /article past any). */
const LATE_AFTER_MS = 200;

/** How long after its time limit the gateway that tests a hung render aborts it. */
const HUNG_AFTER_MS = 300;

let dist: string;
let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'moredoc-first-screen-'));
  cpSync(FIXTURE_DIST, dist, { recursive: true });
  mkdirSync(join(dist, '.ssr'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, FIRST_SCREEN_MODULE), RENDERER);
  writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST));
  for (const [name, css] of Object.entries(STYLESHEETS)) writeFileSync(join(dist, 'assets', name), css);
  // The template with the app's stylesheet, as the build makes it.
  const index = join(dist, 'index.html');
  writeFileSync(
    index,
    readFileSync(index, 'utf8').replace(
      '</head>',
      '  <link rel="stylesheet" crossorigin href="/assets/app-3f9a1c.css">\n  </head>',
    ),
  );
  backend = await startFakeBackend();
  backend.documents.set(5, {
    id: 5,
    title: '城市图书馆',
    category_id: [1],
    status: 2,
    pages: 3,
    preview_ext: '.svg',
    enable_gzip: true,
    attachment: { hash: 'ab'.repeat(16) },
  });
  // Documents whose first page the backend serves: to every visitor (6), too large (7), privately (8), as a scan (9).
  const PUBLIC = 'public, max-age=604800';
  for (const [id, hash, type, body, cacheControl] of [
    [6, 'cd', 'image/svg+xml', Buffer.from(FIRST_PAGE_SVG), PUBLIC],
    [7, 'ef', 'image/svg+xml', Buffer.alloc(INLINE_IMAGE_MAX_BYTES + 1, ' '), PUBLIC],
    [8, '12', 'image/svg+xml', Buffer.from(FIRST_PAGE_SVG), 'private, max-age=3600'],
    [9, '34', 'image/webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 '), PUBLIC],
  ] as const) {
    backend.documents.set(id, { ...backend.documents.get(5), id, attachment: { hash: hash.repeat(16) } });
    backend.files.set(`/view/page/${hash.repeat(16)}/1.gzip.svg`, { type, body, cacheControl });
  }
  gw = await startGateway(backend.url, { webDist: dist, startDataTtlMs: 60_000, routeDataTtlMs: TTL_MS });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await gw.close();
  await backend.close();
  rmSync(dist, { recursive: true, force: true });
});

const rootOf = (html: string) =>
  /<div id="root">(.*?)<\/div>\s*<script type="application\/json"/s.exec(html)?.[1] ?? '';
const headOf = (html: string) => /<head>(.*?)<\/head>/s.exec(html)?.[1] ?? '';

describe('the first screen', () => {
  it("goes into #root for people, made from the start data, with the screen's styles and code in the head", async () => {
    const res = await send(`${gw.url}/library`, { headers: PERSON });
    expect(res.status).toBe(200);
    const root = rootOf(res.text);
    expect(root).toMatch(/^<div class="screen">.+的书库<\/div>$/);
    expect(root).not.toContain('data-crawler');
    const head = headOf(res.text);
    // The screen's own files and those of the chunks it imports; never the first screen's (index.html's).
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/LibraryPage-1.css">');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Breadcrumbs-1.css">');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/LibraryPage-1.js">');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/Breadcrumbs-1.js">');
    expect(head).not.toContain('vendor-1');
    expect(head).not.toContain('index-1');
    // After what the build put in the head (the app's own stylesheets and code): the screen's
    // rules then override the app's of the same specificity, as when the SPA loads its chunk.
    expect(head.indexOf('LibraryPage-1.css')).toBeGreaterThan(head.indexOf('/assets/app-3f9a1c.js'));
    expect(head.indexOf('/assets/app-3f9a1c.js')).toBeGreaterThan(0);
  });

  it("paints the reader's first page image first: the styles inline, the app's code asked for once the image is here", async () => {
    const image = `/view/page/${'ab'.repeat(16)}/1.gzip.svg`;
    const res = await send(`${gw.url}/library/1/5`, { headers: PERSON });
    expect(res.status).toBe(200);
    // Asked for from the answer's head, before the HTML has come.
    expect(res.headers.link).toBe(`<${image}>; rel=preload; as=image; fetchpriority=high`);
    expect(rootOf(res.text)).toContain(`<img src="${image}" alt="第 1 页">`);
    const head = headOf(res.text);
    expect(head).toContain(`<link rel="preload" as="image" href="${image}" fetchpriority="high">`);
    // Nothing in the head downloads beside the image or holds its paint: no stylesheet, script or module preload.
    expect(head).not.toMatch(/<link rel="(?:stylesheet|modulepreload)"|<script[^>]* src=/);
    // The rules inline, in the order of the links they replace (the screen's after the app's, the screen's own before its imports'), a `</style>` in them escaped.
    const styles = [...head.matchAll(/<style>(.*?)<\/style>/gs)]
      .map((m) => m[1])
      .filter((css) => !css!.includes('data-crawler'));
    expect(styles).toEqual([
      '.app{color:red}',
      '.reader img{width:100%}.quote::after{content:"<\\/style>"}',
      '.crumbs{margin:0}',
    ]);
    // At the end of the body, the loader (a file: the CSP runs no inline script) and what it asks for after the image.
    expect(res.text).toMatch(/<script src="\/image-first\.js" defer><\/script>\s*<\/body>/);
    const code = JSON.parse(
      /<script type="application\/json" id="app-code">(.*?)<\/script>/s.exec(res.text)![1]!,
    ) as unknown;
    expect(code).toEqual({
      image,
      latest: APP_CODE_LATEST_MS,
      stylesheets: ['/assets/app-3f9a1c.css', '/assets/DocumentPage-1.css', '/assets/Breadcrumbs-1.css'],
      preloads: ['/assets/DocumentPage-1.js', '/assets/Breadcrumbs-1.js'],
      scripts: [{ src: '/assets/app-3f9a1c.js' }],
    });
    const loader = await send(`${gw.url}/image-first.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(loader.text).toContain("document.getElementById('app-code')");
  });

  it("carries the reader's first page inside it, as a data: URL the browser reads back to the same image", async () => {
    const image = `/view/page/${'cd'.repeat(16)}/1.gzip.svg`;
    const res = await send(`${gw.url}/library/1/6`, { headers: PERSON });
    expect(res.status).toBe(200);
    // Nothing to ask for: no preload in the answer's header or in the head.
    expect(res.headers.link).toBeUndefined();
    expect(headOf(res.text)).not.toContain('rel="preload"');
    expect(rootOf(res.text)).not.toContain('rel="preload"');
    const tag = /<img src="(data:[^"]*)" data-inlined-src="([^"]*)" alt="第 1 页">/.exec(rootOf(res.text));
    expect(tag?.[2]).toBe(image);
    // As the HTML parser, then the data: URL's, read it (the URL parser drops tabs and line breaks).
    const url = tag![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(url).not.toMatch(/[\t\n\r#]/);
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(FIRST_PAGE_SVG);
    // The loader of the app's code still waits for it, by its own path.
    expect(res.text).toContain(`"image":"${image}"`);
    expect(res.text).toMatch(/<script src="\/image-first\.js" defer><\/script>\s*<\/body>/);
    const loader = await send(`${gw.url}/image-first.js`);
    expect(loader.text).toContain("i.getAttribute('data-inlined-src') === code.image");
  });

  it('links a first page that is too large to carry, not the same for every visitor, or a raster, as before', async () => {
    for (const [id, hash] of [
      [7, 'ef'],
      [8, '12'],
      [9, '34'],
    ] as const) {
      const image = `/view/page/${hash.repeat(16)}/1.gzip.svg`;
      const res = await send(`${gw.url}/library/1/${id}`, { headers: PERSON });
      expect(res.status).toBe(200);
      expect(res.headers.link).toBe(`<${image}>; rel=preload; as=image; fetchpriority=high`);
      expect(rootOf(res.text)).toContain(`<img src="${image}" alt="第 1 页">`);
      expect(res.text).not.toContain('data:image');
    }
  });

  it('is not made for crawlers, who keep the plain content', async () => {
    const res = await send(`${gw.url}/library?crawler`, { headers: CRAWLER });
    expect(res.status).toBe(200);
    expect(rootOf(res.text)).toMatch(/^<div data-crawler>/);
    expect(headOf(res.text)).not.toContain('LibraryPage-1.css');
  });

  it('is left out when a component fails: the page is served as before, and the SPA renders it', async () => {
    const res = await send(`${gw.url}/search?wd=abc`, { headers: PERSON });
    expect(res.status).toBe(200);
    expect(rootOf(res.text)).toMatch(/^<div data-crawler>/);
    expect(gw.logs.join('')).toContain('the first screen of a page could not be rendered');
  });

  it('keeps a page made without it only as past its time: the next visitor gets it at once while it is made anew', async () => {
    const failures = () => gw.logs.join('').split('the first screen of a page could not be rendered').length - 1;
    const before = failures();
    for (let i = 0; i < 2; i++)
      expect(rootOf((await send(`${gw.url}/search?wd=again`, { headers: PERSON })).text)).toMatch(
        /^<div data-crawler>/,
      );
    // the second visitor's answer was the kept page; its successor was made (and failed) meanwhile
    await expect.poll(() => failures() - before).toBe(2);
  });

  it('lets what a render leaves to run after it run on the thread, so that nothing of a render is kept', async () => {
    // piscina's default, a thread asleep in Atomics.wait between tasks that takes the next
    // from there, never ran them: every render's React request, stream and HTML stayed queued
    // (the thread's heap grew by each render, 937 MiB after 4,000 library pages).
    const after = async (page: number) =>
      /<p class="after">(\d+ \d+)<\/p>/.exec((await send(`${gw.url}/vip?page=${page}`, { headers: PERSON })).text)?.[1];
    expect(await after(1)).toBe('0 0');
    // A render may reach the thread before the previous render's setImmediate has run: ask (each
    // time a page not kept) until two renders' callbacks of each kind have run.
    const seen = async () => {
      const [ticks = 0, immediates = 0] = (await after(Math.floor(Math.random() * 1e9) + 2))!.split(' ').map(Number);
      return Math.min(ticks, immediates);
    };
    await expect.poll(seen).toBeGreaterThanOrEqual(2);
  });

  it('is rendered by a build that is never served', async () => {
    for (const path of [`/${FIRST_SCREEN_MODULE}`, '/.vite/manifest.json']) {
      const res = await send(`${gw.url}${path}`, { headers: { accept: '*/*' } });
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('renderFirstScreen');
    }
  });

  it('is made once for all who ask while it is made anew, and they get the last one meanwhile', async () => {
    const renderOf = async () =>
      Number(/<p class="render">(\d+)<\/p>/.exec((await send(`${gw.url}/library/1`, { headers: PERSON })).text)?.[1]);
    const first = await renderOf();
    expect(first).toBeGreaterThan(0);
    expect(await renderOf()).toBe(first);
    // Past its time (Date moved ahead, not the timers): twenty at once all get the kept page at
    // once, while one new render is made (and held until they have their answers).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + TTL_MS + 1, shouldAdvanceTime: true });
    const meanwhile = await Promise.all(Array.from({ length: 20 }, renderOf));
    expect(new Set(meanwhile)).toEqual(new Set([first]));
    writeFileSync(join(dist, 'release'), '');
    await expect.poll(renderOf).toBeGreaterThan(first);
    const next = await renderOf();
    // Renders are counted over every page of the renderer's thread: only this URL asked meanwhile.
    expect(next).toBe(first + 1);
  });

  it('is not made for a path that is no route', async () => {
    const res = await send(`${gw.url}/no/such/page`, { headers: PERSON });
    expect(res.status).toBe(404);
    expect(rootOf(res.text)).not.toContain('class="screen"');
  });
});

describe('a first screen past its time limit', () => {
  // A gateway of its own whose pages wait a short time for their first screen: the other tests'
  // renders keep the long default, so that a busy machine does not make them late.
  let hurried: TestGateway;
  beforeAll(async () => {
    hurried = await startGateway(
      backend.url,
      { webDist: dist, startDataTtlMs: 60_000, routeDataTtlMs: TTL_MS },
      { firstScreenTimeLimitMs: LATE_AFTER_MS },
    );
  });
  afterAll(async () => {
    await hurried.close();
  });
  const release = (page: number) => writeFileSync(join(dist, `release-article-${page}`), '');

  it('is left out when it takes longer than its time limit', async () => {
    const started = Date.now();
    const res = await send(`${hurried.url}/article?page=1`, { headers: PERSON });
    release(1);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LATE_AFTER_MS - 50);
    expect(rootOf(res.text)).toMatch(/^<div data-crawler>/);
    // the gateway's own limit, not the default
    expect(hurried.logs.join('')).toContain(`late: over ${LATE_AFTER_MS} ms`);
  });

  it('leaves a render past its time limit to end on its thread, which goes on rendering (not started again)', async () => {
    // /hot may itself be late (a short limit on a busy machine), and is asked again.
    let page = 100;
    const thread = () =>
      vi.waitFor(
        async () => {
          const { text } = await send(`${hurried.url}/hot?page=${++page}`, { headers: PERSON });
          const [, calls, pages] =
            /<p class="calls">(\d+)<\/p><p class="ended">\d+<\/p><p class="pages">([\d ]*)<\/p>/.exec(text) ?? [];
          expect(calls, 'a first screen of /hot').toBeDefined();
          return { calls: Number(calls), pagesEnded: pages!.split(' ') };
        },
        { timeout: 15_000, interval: 50 },
      );
    const before = await thread();
    expect(before.pagesEnded).not.toContain('2');
    const late = await send(`${hurried.url}/article?page=2`, { headers: PERSON });
    expect(rootOf(late.text)).toMatch(/^<div data-crawler>/);
    release(2);
    // The late render ends on the same thread, whose module counted it and the renders since (the
    // previous case's late page may end meanwhile too: renders run side by side).
    await expect.poll(async () => (await thread()).pagesEnded).toContain('2');
    expect((await thread()).calls).toBeGreaterThanOrEqual(before.calls + 3);
  });
});

describe('a first screen that never ends', () => {
  // A gateway of its own whose renders are aborted soon after their time limit.
  let stuck: TestGateway;
  beforeAll(async () => {
    stuck = await startGateway(
      backend.url,
      { webDist: dist, startDataTtlMs: 60_000, routeDataTtlMs: TTL_MS },
      { firstScreenTimeLimitMs: LATE_AFTER_MS, firstScreenHangMs: HUNG_AFTER_MS },
    );
  });
  afterAll(async () => {
    await stuck.close();
  });

  it('is aborted, its thread started anew: the pages after it have their first screen again', async () => {
    // What the renderer's thread has made (a first screen of /hot), or undefined: the page went without one.
    let page = 200;
    const hot = async () => {
      const { text } = await send(`${stuck.url}/hot?page=${++page}`, { headers: PERSON });
      const [, calls, ended] = /<p class="calls">(\d+)<\/p><p class="ended">(\d+)<\/p>/.exec(text) ?? [];
      return calls === undefined ? undefined : { calls: Number(calls), ended: Number(ended) };
    };
    const first = await vi.waitFor(
      async () => {
        const made = await hot();
        expect(made, 'a first screen of /hot').toBeDefined();
        return made!;
      },
      { timeout: 15_000, interval: 50 },
    );
    // As many renders as the thread makes side by side, held for ever (never released): each
    // page is served without its first screen, and the thread has no room for another render.
    const held = Array.from({ length: RENDERS_PER_THREAD }, (_, i) => 300 + i);
    for (const res of await Promise.all(held.map((n) => send(`${stuck.url}/article?page=${n}`, { headers: PERSON })))) {
      expect(res.status).toBe(200);
      expect(rootOf(res.text)).toMatch(/^<div data-crawler>/);
    }
    await vi.waitFor(() => {
      for (const n of held) expect(existsSync(join(dist, `started-article-${n}`))).toBe(true);
    });
    // Aborted, the held renders end their thread: a new one renders /hot, its module loaded
    // anew (its count starts again from the renders asked since, none of /article ended).
    const askedBefore = page;
    const again = await vi.waitFor(
      async () => {
        const made = await hot();
        expect(made, 'a first screen of /hot').toBeDefined();
        return made!;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(again.ended).toBe(0);
    // The same thread would count /hot's first render, the held ones and every /hot asked since.
    expect(first.calls).toBeGreaterThanOrEqual(1);
    expect(again.calls).toBeLessThanOrEqual(page - askedBefore);
  });
});

describe('first screens rendered side by side', () => {
  // A gateway of its own whose limit is far above what a render here takes, so that only a render
  // held behind another misses it.
  let patient: TestGateway;
  beforeAll(async () => {
    patient = await startGateway(
      backend.url,
      { webDist: dist, startDataTtlMs: 60_000, routeDataTtlMs: TTL_MS },
      { firstScreenTimeLimitMs: 10_000 },
    );
  });
  afterAll(async () => {
    await patient.close();
  });

  it("renders a page's first screen while another page's render is held", async () => {
    const held = send(`${patient.url}/article?page=3`, { headers: PERSON });
    await vi.waitFor(() => expect(existsSync(join(dist, 'started-article-3'))).toBe(true), { timeout: 15_000 });
    const next = send(`${patient.url}/library`, { headers: PERSON });
    // One at a time, /library waited for /article, which answered first at its limit, without its screen.
    const first = await Promise.race([held.then(() => 'held'), next.then(() => 'next')]);
    expect(first).toBe('next');
    expect(rootOf((await next).text)).toMatch(/^<div class="screen">.+的书库<\/div>$/);
    writeFileSync(join(dist, 'release-article-3'), '');
    expect(rootOf((await held).text)).toBe('<p>late</p>');
  });
});
