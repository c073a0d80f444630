// The crawler pages benchmark (`npm run bench -- --only=crawler`): whether the crawler's plain
// HTML (gateway/page-html.ts) could be the React first screen instead (web/src/entry-server.tsx,
// gateway/first-screen.ts), one renderer of a page instead of two (issue 47 § 3). For the main
// pages a crawler indexes (home, a document, a category's list, an article, a search), on a site
// as `npm start` runs it with converted documents and an article in it:
// - what a crawler loses: the crawler content's text blocks and links that the React render
//   of the same page lacks, and whether the heads are the same;
// - the CPU time of a page render, made by the gateway's own function (renderVisitorPage) from
//   the page's real start data and route data, in this process: as for a crawler, and as for a
//   person (the React render on the renderer's thread, whose CPU time this process counts);
// - the CPU time of the site process per page over HTTP, the kept page missed (a query
//   parameter of its own on each request), as a crawler and as a person asks;
// - the bytes of each page.
// Every figure compares the two renderers in the same run, interleaved by round.
import type { FastifyBaseLogger } from 'fastify';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { callUrl, type CallAnswer } from '../shared/api-call';
import { matchRoute, routeDataCalls } from '../shared/routes';
import type { StartData } from '../shared/types/start-data';
import { loadFirstScreen, type FirstScreenRenderer } from '../gateway/first-screen';
import { queryOf, renderVisitorPage, type PageToRender } from '../gateway/page-render';
import { parseHtml } from '../tests/helpers/xml';
import { adminToken, json, publishDocuments } from './lib/site-content';
import { REPO_ROOT, cpuTimeOf, startSiteProcess, type Started } from './lib/processes';
import { heading, int, kib, ratio, table } from './lib/report';

export interface CrawlerPagesBenchOptions {
  /** Renders (and requests) per page, per renderer, per round. */
  renders: number;
  rounds: number;
}

const WEB_DIST = join(REPO_ROOT, 'web/dist');
const ADMIN_PASSWORD = 'bench-admin-password';
const CRAWLER = {
  accept: 'text/html',
  'user-agent': 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
};
const PERSON = {
  accept: 'text/html',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36',
};
const ARTICLE_BODY =
  '<p>城市图书馆将于<strong>周末</strong>延长开放时间。</p><ul><li>周六开放到晚上十点</li><li>周日开放到晚上八点</li></ul>';

interface BenchPage {
  label: string;
  path: string;
}

interface Captured extends BenchPage {
  crawlerHtml: string;
  personHtml: string;
  input: PageToRender;
}

const quiet = () => undefined;
const log = {
  info: quiet,
  warn: (data: { err?: unknown }, message: string) =>
    process.stderr.write(`  renderer: ${message}: ${String(data.err)}\n`),
} as unknown as FastifyBaseLogger;

async function getHtml(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} as ${headers['user-agent']}: ${res.status}`);
  return text;
}

const startDataOf = (html: string) => JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;

/** What the gateway renders the page from: the start data the page carries, and the route data's answers as the backend gives them. */
async function capture(siteUrl: string, page: BenchPage): Promise<Captured> {
  const crawlerHtml = await getHtml(`${siteUrl}${page.path}`, CRAWLER);
  const personHtml = await getHtml(`${siteUrl}${page.path}`, PERSON);
  const start = startDataOf(personHtml);
  const [path, search = ''] = page.path.split(/(?=\?)/);
  const match = matchRoute(path!);
  if (!match) throw new Error(`${page.path} is no route`);
  const calls = routeDataCalls(match, queryOf(search), start.categories);
  const bodies: CallAnswer[] = [];
  for (const call of calls) {
    const res = await fetch(`${siteUrl}${callUrl(call)}`, { headers: { accept: 'application/json' } });
    if (res.status === 200) bodies.push({ key: call.key, data: await res.json() });
  }
  const { routeData = [], ...publicPart } = start;
  const input: PageToRender = {
    path: path!,
    search,
    origin: siteUrl,
    match,
    closed: false,
    session: { allowPages: [] },
    publicPart: { settings: publicPart.settings, navigation: publicPart.navigation, categories: publicPart.categories },
    routeData: { answers: routeData, bodies, missing: false, failures: [], unavailable: false },
    crawler: true,
  };
  return { ...page, crawlerHtml, personHtml, input };
}

const normalized = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Whether a text block of the crawler content is in `text` (the React render's, without
 * whitespace) in the same or other words: each of its facts' values, a label such as 格式： aside
 * (the reader shows "PDF" where the crawler content says "格式：PDF").
 */
function shows(text: string, block: string): boolean {
  return block
    .split(/\s+(?=[^\s：]{1,6}：)/)
    .map((fact) => fact.replace(/^[^\s：]{1,6}：/, '').replace(/\s+/g, ''))
    .every((value) => text.includes(value));
}

/** The parts of the head a search engine reads. */
function headOf(doc: Document): string {
  const picked = [
    doc.title,
    doc.querySelector('meta[name="description"]')?.getAttribute('content'),
    doc.querySelector('meta[name="keywords"]')?.getAttribute('content'),
    doc.querySelector('meta[name="robots"]')?.getAttribute('content'),
    doc.querySelector('link[rel="canonical"]')?.getAttribute('href'),
    ...[...doc.querySelectorAll('meta[property]')].map(
      (m) => `${m.getAttribute('property')}=${m.getAttribute('content')}`,
    ),
    ...[...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent),
  ];
  return JSON.stringify(picked);
}

interface Survival {
  sameHead: boolean;
  firstScreen: boolean;
  texts: { found: number; total: number; missing: string[] };
  links: { found: number; total: number; missing: string[] };
}

/** What of the crawler's content (#root > [data-crawler]) is in the React render of the same page (#root). */
function survival(page: Captured): Survival {
  const crawler = parseHtml(page.crawlerHtml);
  const person = parseHtml(page.personHtml);
  const content = crawler.querySelector('#root > [data-crawler]');
  if (!content) throw new Error(`${page.path}: the crawler's page has no crawler content`);
  const root = person.querySelector('#root')!;
  const rootText = (root.textContent ?? '').replace(/\s+/g, '');
  const blocks = [
    ...new Set(
      [...content.querySelectorAll('h1, h2, p, li, time')]
        .filter((element) => !element.querySelector('p, li, ul, ol'))
        .map((element) => normalized(element.textContent))
        .filter(Boolean),
    ),
  ];
  const hrefs = [...new Set([...content.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!))];
  const rootHrefs = new Set([...root.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')));
  const missingTexts = blocks.filter((block) => !shows(rootText, block));
  const missingLinks = hrefs.filter((href) => !rootHrefs.has(href));
  return {
    sameHead: headOf(crawler) === headOf(person),
    firstScreen: root.querySelector('[data-crawler]') === null && root.children.length > 0,
    texts: { found: blocks.length - missingTexts.length, total: blocks.length, missing: missingTexts },
    links: { found: hrefs.length - missingLinks.length, total: hrefs.length, missing: missingLinks },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU µs (all this process's threads) per render of the page, `count` renders one after another. */
async function cpuPerRender(
  template: string,
  firstScreen: FirstScreenRenderer,
  input: PageToRender,
  count: number,
): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await renderVisitorPage(template, firstScreen, input);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

/** CPU µs of the site process per page, `count` requests one after another, each missing the kept pages. */
async function cpuPerRequest(
  site: Started,
  page: BenchPage,
  headers: Record<string, string>,
  tag: string,
  count: number,
): Promise<number> {
  const separator = page.path.includes('?') ? '&' : '?';
  const before = await cpuTimeOf(site.pid);
  for (let i = 0; i < count; i++) await getHtml(`${site.url}${page.path}${separator}bench=${tag}-${i}`, headers);
  return ((await cpuTimeOf(site.pid)) - before) / count;
}

async function publishArticle(backendUrl: string): Promise<string> {
  const token = await adminToken(backendUrl, ADMIN_PASSWORD);
  await json(`${backendUrl}/api/v1/category`, {
    method: 'POST',
    token,
    body: JSON.stringify({ title: '公告', type: 1, description: '本站的通知与公告' }),
  });
  const categories = await json(`${backendUrl}/api/v1/category/list?type=1`, { token });
  const notices = (categories.body.category as { id: number; title: string }[]).find((c) => c.title === '公告')!.id;
  for (const [identifier, title] of [
    ['opening-hours', '图书馆开放时间调整'],
    ['reading-week', '阅读周活动'],
  ] as const) {
    const created = await json(`${backendUrl}/api/v1/article`, {
      method: 'POST',
      token,
      body: JSON.stringify({
        title,
        identifier,
        description: `${title}的安排`,
        keywords: '图书馆,公告',
        author: '馆员',
        content: ARTICLE_BODY,
        category_id: [notices],
      }),
    });
    if (created.status !== 200) throw new Error(`creating a benchmark article: ${JSON.stringify(created.body)}`);
  }
  return '/article/detail/opening-hours';
}

export async function crawlerPagesBenchmark(options: CrawlerPagesBenchOptions): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-crawler-'));
  let site: Started | undefined;
  let firstScreen: FirstScreenRenderer | undefined;
  try {
    site = await startSiteProcess(dir, ADMIN_PASSWORD, { BENCH_WEB_DIST: WEB_DIST, BENCH_BACKEND_LISTEN: '1' });
    const backendUrl = String(site.announced.backend);
    process.stderr.write('  publishing three converted documents and two articles …\n');
    const content = await publishDocuments(backendUrl, ADMIN_PASSWORD, [
      '城市图书馆的一天',
      '图书馆的夜晚',
      '阅读的城市',
    ]);
    const articlePath = await publishArticle(backendUrl);
    const pages: BenchPage[] = [
      { label: 'home', path: '/' },
      { label: 'document', path: `/library/${content.categoryId}/${content.documentIds[0]}` },
      { label: 'category list', path: `/library/${content.categoryId}` },
      { label: 'article', path: articlePath },
      { label: 'search', path: `/search?wd=${encodeURIComponent('图书馆')}` },
    ];
    const captured: Captured[] = [];
    for (const page of pages) captured.push(await capture(site.url, page));

    const template = await readFile(join(WEB_DIST, 'index.html'), 'utf8');
    // A render that a busy machine makes late is waited for: the limit is not this benchmark's subject.
    firstScreen = await loadFirstScreen(WEB_DIST, log, 60_000);
    if (!firstScreen) throw new Error('web/dist has no first-screen build: npm run build:web');
    const asPerson = (page: Captured): PageToRender => ({ ...page.input, crawler: false });
    for (const page of captured) {
      const made = (await renderVisitorPage(template, firstScreen, asPerson(page))).html.toString();
      if (made.includes('<div data-crawler>'))
        throw new Error(`${page.path}: the React render failed or is not made for this page`);
    }

    const load = os.loadavg();
    const warmup = Math.max(10, Math.round(options.renders / 10));
    const renders = captured.map(() => ({ crawler: [] as number[], person: [] as number[] }));
    const requests = captured.map(() => ({ crawler: [] as number[], person: [] as number[] }));
    for (const [i, page] of captured.entries()) {
      await cpuPerRender(template, firstScreen, page.input, warmup);
      await cpuPerRender(template, firstScreen, asPerson(page), warmup);
      await cpuPerRequest(site, page, CRAWLER, `warm-c${i}`, warmup);
      await cpuPerRequest(site, page, PERSON, `warm-p${i}`, warmup);
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const [i, page] of captured.entries()) {
        process.stderr.write(`  round ${round}/${options.rounds}: ${page.label} …\n`);
        renders[i]!.crawler.push(await cpuPerRender(template, firstScreen, page.input, options.renders));
        renders[i]!.person.push(await cpuPerRender(template, firstScreen, asPerson(page), options.renders));
        requests[i]!.crawler.push(await cpuPerRequest(site, page, CRAWLER, `c${round}`, options.renders));
        requests[i]!.person.push(await cpuPerRequest(site, page, PERSON, `p${round}`, options.renders));
      }
    }
    const loadAfter = os.loadavg();

    heading('9. Crawler pages: the plain crawler HTML against the React render');
    console.log(
      `${options.rounds} interleaved rounds of ${options.renders} renders and ${options.renders} requests per page and renderer, medians. Load average ` +
        `${load.map((n) => n.toFixed(2)).join(' ')} before, ${loadAfter.map((n) => n.toFixed(2)).join(' ')} after.`,
    );
    console.log(
      "Render: renderVisitorPage in this process from the page's real start data and route data (crawler: page-html.ts; person: the React first screen on its thread), CPU µs of all threads per page. " +
        'HTTP: the site process (gateway and embedded backend) per request, one at a time, each with a query parameter of its own (the kept page missed, the route data kept). ' +
        "Texts/links: the crawler content's text blocks (h1, h2, p, li; in the same or other words, a label such as 格式： aside) and link targets that the React render of the same page also has.\n",
    );
    const kept = captured.map(survival);
    const rows = captured.map((page, i) => {
      const crawlerBytes = Buffer.byteLength(page.crawlerHtml);
      const personBytes = Buffer.byteLength(page.personHtml);
      return [
        page.label,
        int(median(renders[i]!.crawler)),
        int(median(renders[i]!.person)),
        ratio(median(renders[i]!.person), median(renders[i]!.crawler)),
        int(median(requests[i]!.crawler)),
        int(median(requests[i]!.person)),
        ratio(median(requests[i]!.person), median(requests[i]!.crawler)),
        `${kib(crawlerBytes)} / ${kib(gzipSync(page.crawlerHtml).length)}`,
        `${kib(personBytes)} / ${kib(gzipSync(page.personHtml).length)}`,
        `${kept[i]!.texts.found}/${kept[i]!.texts.total}`,
        `${kept[i]!.links.found}/${kept[i]!.links.total}`,
        kept[i]!.sameHead ? 'yes' : 'no',
      ];
    });
    console.log(
      table(
        [
          'page',
          'render µs crawler',
          'render µs React',
          'React ÷ crawler',
          'HTTP µs crawler',
          'HTTP µs React',
          'React ÷ crawler',
          'KiB crawler (gzip)',
          'KiB React (gzip)',
          'texts kept',
          'links kept',
          'same head',
        ],
        rows,
      ),
    );
    console.log('');
    for (const [i, page] of captured.entries()) {
      const { texts, links } = kept[i]!;
      const lost = [
        ...texts.missing.map((text) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`),
        ...links.missing.map((href) => `<${href}>`),
      ];
      console.log(
        `- ${page.label} (${page.path.replace(/\/\d+/g, '/N')}): ${lost.length ? `lost in the React render: ${lost.slice(0, 6).join(', ')}${lost.length > 6 ? `, and ${lost.length - 6} more` : ''}` : 'nothing lost'}`,
      );
    }
  } finally {
    await firstScreen?.close();
    await site?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
