// What the gateway writes into the page it serves, besides the start data: the <head> of the
// page (shared/page-head.ts), and the page's main content as plain semantic HTML inside
// #root for crawlers that run no JavaScript, made from the same route data the SPA starts
// with. A browser that runs scripts never shows that content (the style below hides it) and
// React replaces it when it mounts; a missing document gives crawlers a plain 404 page.
import { findAnswer, type CallAnswer } from '../shared/api-call';
import type { PageHead, PageInput } from '../shared/page-head';
import { htmlText, listPosition, pageArticleKey, pagesOf, pageTrail, siteNameOf, summary } from '../shared/page-head';
import {
  ARTICLE_PAGE_SIZE,
  LIBRARY_PAGE_SIZE,
  SEARCH_PAGE_SIZE,
  articleCall,
  articleCategoryIds,
  articleListCall,
  articleListRequest,
  articleListState,
  articleNeighboursCall,
  articleSearchCall,
  documentCall,
  friendlinksCall,
  homeDocumentsCall,
  hotDocumentsCall,
  hotPageOf,
  latestDocumentsCall,
  libraryCall,
  libraryRequest,
  libraryState,
  recommendedArticlesCall,
  recommendedDocumentsCall,
  relatedArticlesCall,
  relatedDocumentsCall,
  searchCall,
  searchRequest,
  searchState,
} from '../shared/page-data';
import { shownKeywords } from '../shared/keywords';
import {
  articlePagePath,
  articleSearchPath,
  categoryPagePath,
  documentPagePath,
  searchPath,
} from '../shared/page-paths';
import { firstPageImagePath } from '../shared/page-image';
import { formatDate, SHORT_DATE_FORMAT } from '../shared/format';
import { isIndexable } from '../shared/robots';
import { ICP_LOOKUP, copyrightYears, footerLinks, publicSecurityRecordLink } from '../shared/site-footer';
import { unreachable } from '../shared/unreachable';
import { VIP_NOT_ON_SALE, formatFen, vipOnSale, yuanToFen } from '../shared/vip';
import type { Article } from '../shared/types/article';
import type { Category } from '../shared/types/category';
import type { Document } from '../shared/types/document';
import type { Settings } from '../shared/types/config';
import type { Navigation } from '../shared/types/navigation';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that can sit inside <script> without ending it or being read as HTML. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function safeIconUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '/favicon.ico';
  return /^(?:https?:\/\/|\/(?!\/))/i.test(value) ? value : '/favicon.ico';
}

/** How much of a document's text the crawler content shows (GetDocument gives 8,192 characters). */
export const TEXT_EXCERPT_CHARS = 3000;

/** Hides the crawler content wherever scripts run: React replaces it, people never see it. */
const CRAWLER_STYLE = '<style>@media (scripting: enabled) { #root > [data-crawler] { display: none; } }</style>';

/**
 * Images the first screen shows at once, for the browser to fetch with the page rather than
 * after the app's code: a document's first page.
 */
export function firstScreenImages(input: PageInput): string[] {
  if (input.match?.route.name !== 'library-category-id') return [];
  const doc = findAnswer(input.answers, documentCall(Number(input.match.params.id)));
  const image = doc && firstPageImagePath(doc);
  return image ? [image] : [];
}

/**
 * What Baidu reads of a page that adapts to the screen (decision 070): the same address for
 * computers and phones (`applicable-device`), and no transcoding of it into Baidu's own mobile
 * page with Baidu's ads (`no-transform`, `no-siteapp`).
 */
const MOBILE_ADAPTATION = [
  '<meta name="applicable-device" content="pc,mobile">',
  '<meta http-equiv="Cache-Control" content="no-transform">',
  '<meta http-equiv="Cache-Control" content="no-siteapp">',
];

export function renderHead(head: PageHead, favicon: unknown, images: readonly string[] = []): string {
  const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}">`;
  return [
    ...images.map((href) => `<link rel="preload" as="image" href="${escapeHtml(href)}" fetchpriority="high">`),
    `<title>${escapeHtml(head.title)}</title>`,
    meta('description', head.description),
    meta('keywords', head.keywords),
    ...(head.robots ? [meta('robots', head.robots)] : []),
    ...MOBILE_ADAPTATION,
    ...(head.canonical ? [`<link rel="canonical" href="${escapeHtml(head.canonical)}">`] : []),
    ...head.openGraph.map(
      ([property, content]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`,
    ),
    `<link rel="icon" href="${escapeHtml(safeIconUrl(favicon))}">`,
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${scriptSafeJson(data)}</script>`),
    CRAWLER_STYLE,
  ].join('\n    ');
}

const link = (path: string, text: string) => `<a href="${escapeHtml(path)}">${escapeHtml(text)}</a>`;

function listOfLinks(items: readonly { path: string | undefined; text: string }[]): string {
  const shown = items.filter((item): item is { path: string; text: string } => !!item.path && !!item.text);
  return shown.length ? `<ul>${shown.map((item) => `<li>${link(item.path, item.text)}</li>`).join('')}</ul>` : '';
}

/** 关键词：a page's keywords, each a link to its search (as the SPA's KeywordLinks shows them). */
function keywordLinks(keywords: string | undefined, pathOf: (word: string) => string): string {
  const words = shownKeywords(keywords);
  return words.length ? `<p>关键词：${words.map((word) => link(pathOf(word), word)).join(' ')}</p>` : '';
}

const section = (title: string, body: string) =>
  body ? `<section><h2>${escapeHtml(title)}</h2>${body}</section>` : '';

function breadcrumbs(input: PageInput): string {
  const trail = pageTrail(input);
  if (trail.length < 2) return '';
  const items = trail.map(
    (crumb, i) => `<li>${i === trail.length - 1 ? escapeHtml(crumb.name) : link(crumb.path, crumb.name)}</li>`,
  );
  return `<nav aria-label="面包屑"><ol>${items.join('')}</ol></nav>`;
}

function siteNavigation(navigation: readonly Navigation[]): string {
  const top = navigation.filter((n) => n.enable !== false && !n.parent_id && n.href && n.title);
  return top.length
    ? `<nav aria-label="网站导航">${listOfLinks(top.map((n) => ({ path: n.href, text: n.title ?? '' })))}</nav>`
    : '';
}

/** The footer as the SPA shows it (shared/site-footer.ts): its links, the statement, © and 备案 numbers. */
function siteFooter(settings: Settings): string {
  const system = settings.system ?? {};
  const links = footerLinks(settings).map((l) => ({ path: l.href, text: l.label }));
  const statement = htmlText(settings.display?.copyright_statement);
  const records = [
    system.icp ? link(ICP_LOOKUP, system.icp) : '',
    system.sec_icp ? link(publicSecurityRecordLink(system.sec_icp), system.sec_icp) : '',
  ].filter(Boolean);
  const copyright = escapeHtml(
    `© ${copyrightYears(system.copyright_start_year, new Date().getFullYear())} ${siteNameOf(settings)}`,
  );
  return [
    '<footer>',
    links.length ? `<nav aria-label="页脚链接">${listOfLinks(links)}</nav>` : '',
    statement ? `<p>${escapeHtml(statement)}</p>` : '',
    `<p>${[copyright, ...records].join(' ')}</p>`,
    '</footer>',
  ].join('');
}

const documentLinks = (documents: readonly Document[]) =>
  listOfLinks(documents.map((d) => ({ path: documentPagePath(d), text: d.title ?? '' })));
const articleLinks = (articles: readonly Article[]) =>
  listOfLinks(articles.map((a) => ({ path: articlePagePath(a), text: a.title || '无标题' })));

function documentCategories(categories: readonly Category[]): string {
  const visible = categories.filter((c) => c.type !== 1 && c.enable !== false);
  return listOfLinks(visible.map((c) => ({ path: categoryPagePath(c), text: c.title ?? '' })));
}

function homeContent(input: PageInput): string {
  const system = input.settings.system ?? {};
  const byCategory = (findAnswer(input.answers, homeDocumentsCall()) ?? []).map((item) =>
    section(item.category_name ?? '', documentLinks(item.document ?? [])),
  );
  return [
    `<h1>${escapeHtml(siteNameOf(input.settings))}</h1>`,
    system.description ? `<p>${escapeHtml(system.description)}</p>` : '',
    section('文档分类', documentCategories(input.categories)),
    section('推荐文档', documentLinks(findAnswer(input.answers, recommendedDocumentsCall()) ?? [])),
    ...byCategory,
    section('最新文档', documentLinks(findAnswer(input.answers, latestDocumentsCall()) ?? [])),
    section(
      '友情链接',
      listOfLinks(
        (findAnswer(input.answers, friendlinksCall()) ?? []).map((l) => ({ path: l.link, text: l.title ?? '' })),
      ),
    ),
  ].join('');
}

/** `/vip`: what the membership is, its plans with their prices (and whether on sale), and its benefits (the `vip` settings). */
function vipContent(input: PageInput, head: PageHead): string {
  const vip = input.settings.vip ?? {};
  const plans = (vip.plans ?? [])
    .filter((plan) => plan.title)
    .map((plan) => {
      const terms = `¥${formatFen(yuanToFen(plan.price ?? 0))} / ${plan.days ?? 0} 天`;
      return `<li>${escapeHtml(`${plan.title}：${terms}${plan.description ? `，${plan.description}` : ''}`)}</li>`;
    });
  const benefits = htmlText(vip.benefits);
  return [
    `<h1>${escapeHtml(vip.title || head.title.replace(/ - .*$/, ''))}</h1>`,
    vip.description ? `<p>${escapeHtml(vip.description)}</p>` : '',
    // As people see it: the plans, and that they cannot be bought yet while that is so.
    section(
      '会员套餐',
      plans.length ? `${vipOnSale(input.settings) ? '' : `<p>${VIP_NOT_ON_SALE}</p>`}<ul>${plans.join('')}</ul>` : '',
    ),
    section('会员权益', benefits ? `<p>${escapeHtml(benefits)}</p>` : ''),
  ].join('');
}

function documentContent(input: PageInput, id: number, bodies: readonly CallAnswer[]): string {
  const doc = findAnswer(input.answers, documentCall(id));
  if (!doc) return '';
  // The text is not part of what the page carries for the SPA: it comes from the answer itself.
  const text = summary(findAnswer(bodies, documentCall(id))?.content, TEXT_EXCERPT_CHARS);
  const facts = [
    doc.ext ? `格式：${doc.ext.replace(/^\./, '').toUpperCase()}` : '',
    doc.pages ? `页数：${doc.pages}` : '',
    doc.user?.username || doc.username ? `上传者：${doc.user?.username || doc.username}` : '',
    doc.created_at ? `上传时间：${doc.created_at.slice(0, 10)}` : '',
  ].filter(Boolean);
  return [
    breadcrumbs(input),
    `<article><h1>${escapeHtml(doc.title ?? '')}</h1>`,
    doc.description ? `<p>${escapeHtml(doc.description)}</p>` : '',
    keywordLinks(doc.keywords, searchPath),
    facts.length ? `<ul>${facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>` : '',
    text ? `<section><h2>文档内容</h2><p>${escapeHtml(text)}</p></section>` : '',
    '</article>',
    section('相关文档', documentLinks(findAnswer(input.answers, relatedDocumentsCall(id)) ?? [])),
  ].join('');
}

/** 上一篇：《…》 and 下一篇：《…》, each where there is one (as the page's end shows them). */
function articleNeighbourLinks(input: PageInput, key: string, categoryId: number | undefined): string {
  const neighbours = findAnswer(input.answers, articleNeighboursCall(key, categoryId)) ?? {};
  const lines = (
    [
      ['上一篇', neighbours.previous],
      ['下一篇', neighbours.next],
    ] as const
  ).flatMap(([label, article]) =>
    article ? [`<p>${label}：《${link(articlePagePath(article), article.title || '无标题')}》</p>`] : [],
  );
  return lines.length ? `<nav aria-label="上一篇和下一篇">${lines.join('')}</nav>` : '';
}

/** An article: its trail, title, author and date, the body, 上一篇 / 下一篇 and the related articles. */
function articleContent(input: PageInput, key: string, categoryId: number | undefined): string {
  const article = findAnswer(input.answers, articleCall(key));
  if (!article) return '';
  const author = article.author || article.user?.username;
  const byline = [
    author ? `作者：${escapeHtml(author)}` : '',
    article.created_at
      ? `发布时间：<time datetime="${escapeHtml(article.created_at)}">${escapeHtml(formatDate(article.created_at, SHORT_DATE_FORMAT))}</time>`
      : '',
  ].filter(Boolean);
  return [
    breadcrumbs(input),
    `<article><h1>${escapeHtml(article.title || '无标题')}</h1>`,
    byline.length ? `<p>${byline.join(' ')}</p>` : '',
    keywordLinks(article.keywords, (word) => articleSearchPath(word)),
    // The body is HTML the backend passed through its allow-list when it was saved (platform/rich-text.ts).
    `<div>${article.content ?? ''}</div>`,
    '</article>',
    articleNeighbourLinks(input, key, categoryId),
    section('相关文章', articleLinks(findAnswer(input.answers, relatedArticlesCall(key)) ?? [])),
  ].join('');
}

/** Links to the other pages of a list: previous, up to ten numbered pages around this one, next. */
function pageLinks(path: string, query: Readonly<Record<string, string>>, page: number, pages: number): string {
  if (pages <= 1) return '';
  const href = (n: number) => {
    const params = new URLSearchParams(query);
    if (n > 1) params.set('page', String(n));
    else params.delete('page');
    const search = params.toString();
    return search ? `${path}?${search}` : path;
  };
  const first = Math.max(1, Math.min(page - 4, pages - 9));
  const numbers = Array.from({ length: Math.min(10, pages) }, (_, i) => first + i);
  const items = [
    ...(page > 1 ? [`<li>${link(href(page - 1), '上一页')}</li>`] : []),
    ...numbers.map(
      (n) => `<li>${n === page ? `<span aria-current="page">${n}</span>` : link(href(n), String(n))}</li>`,
    ),
    ...(page < pages ? [`<li>${link(href(page + 1), '下一页')}</li>`] : []),
  ];
  return `<nav aria-label="分页"><ol>${items.join('')}</ol></nav>`;
}

function categoryContent(input: PageInput, head: PageHead): string {
  const id = Number(input.match?.params.category) || undefined;
  const category = input.categories.find((c) => c.id === id);
  const articles = input.match?.route.name === 'article-category';
  const type = articles ? 1 : (category?.type ?? 0);
  const children = input.categories.filter(
    (c) => (c.parent_id ?? 0) === (id ?? 0) && c.enable !== false && (c.type ?? 0) === type,
  );
  const parts = [
    breadcrumbs(input),
    `<h1>${escapeHtml(category?.title ?? head.title.replace(/ - [^-]*$/, ''))}</h1>`,
    category?.description ? `<p>${escapeHtml(category.description)}</p>` : '',
    section(
      articles && !category ? '文章分类' : '子分类',
      listOfLinks(children.map((c) => ({ path: categoryPagePath(c), text: c.title ?? '' }))),
    ),
  ];
  if (articles) {
    // The same calls as the page's (shared/page-data.ts articleListPageCalls).
    const state = articleListState(input.query);
    const categoryIds = category?.id ? articleCategoryIds(input.categories, category.id) : [];
    const hits = state.wd ? findAnswer(input.answers, articleSearchCall(state.wd, state.page, categoryIds)) : undefined;
    const list = state.wd
      ? hits && { articles: hits.hits, total: hits.total }
      : findAnswer(input.answers, articleListCall(articleListRequest(categoryIds, state.page)));
    if (list) {
      const pages = Math.max(1, Math.ceil(list.total / ARTICLE_PAGE_SIZE));
      parts.push(
        section(state.wd ? '搜索结果' : '文章', articleLinks(list.articles)),
        pageLinks(input.path, input.query, state.page, pages),
      );
    }
    parts.push(section('推荐文章', articleLinks(findAnswer(input.answers, recommendedArticlesCall())?.articles ?? [])));
  } else {
    const state = libraryState(input.query);
    const list = findAnswer(input.answers, libraryCall(libraryRequest(id, state)));
    if (list) {
      const pages = Math.max(1, Math.ceil((list.total ?? 0) / LIBRARY_PAGE_SIZE));
      parts.push(
        section('文档', documentLinks(list.document ?? [])),
        pageLinks(input.path, input.query, state.page, pages),
      );
    }
  }
  return parts.join('');
}

function searchContent(input: PageInput, head: PageHead): string {
  const state = searchState(input.query);
  // The same request as the page's call (its date filter counts from today).
  const reply = state.wd ? findAnswer(input.answers, searchCall(searchRequest(state, Date.now()))) : undefined;
  const parts = [breadcrumbs(input), `<h1>${escapeHtml(head.title.replace(/ - [^-]*$/, ''))}</h1>`];
  if (reply) {
    const pages = Math.max(1, Math.ceil((reply.total ?? 0) / SEARCH_PAGE_SIZE));
    parts.push(
      section('搜索结果', documentLinks(reply.document ?? [])),
      pageLinks(input.path, input.query, state.page, pages),
    );
  }
  return parts.join('');
}

/** `/hot`: its page of the ranking, as links, and the links to its other pages. */
function hotContent(input: PageInput, head: PageHead): string {
  const page = hotPageOf(input.query);
  const reply = findAnswer(input.answers, hotDocumentsCall(page));
  const position = listPosition(input);
  return [
    `<h1>${escapeHtml(head.title.replace(/ - [^-]*$/, ''))}</h1>`,
    section('热门文档', documentLinks(reply?.document ?? [])),
    position ? pageLinks(input.path, input.query, position.page, pagesOf(position)) : '',
  ].join('');
}

/**
 * The page's main content for crawlers, or '' for pages that have none (not indexed, or
 * whose data did not come in time).
 */
export function renderCrawlerContent(
  input: PageInput,
  head: PageHead,
  navigation: readonly Navigation[],
  bodies: readonly CallAnswer[] = [],
): string {
  const route = input.match?.route;
  // A page without robots is an indexable route's (shared/page-head.ts).
  if (head.robots || !route || !isIndexable(route)) return '';
  let main: string;
  switch (route.name) {
    case 'index':
      main = homeContent(input);
      break;
    case 'library-category-id':
      main = documentContent(input, Number(input.match?.params.id), bodies);
      break;
    case 'library':
    case 'library-category':
      main = categoryContent(input, head);
      break;
    case 'article-category':
    case 'article-category-detail-id': {
      const key = pageArticleKey(input.match, input.categories);
      // `/article/{category}/detail/{id}` names a category; `/article/{x}` naming an article does not.
      const category = route.name === 'article-category-detail-id' ? Number(input.match?.params.category) : 0;
      main = key === undefined ? categoryContent(input, head) : articleContent(input, key, category || undefined);
      break;
    }
    case 'search':
      main = searchContent(input, head);
      break;
    case 'vip':
      main = vipContent(input, head);
      break;
    case 'hot':
      main = hotContent(input, head);
      break;
    default:
      return unreachable(route.name);
  }
  if (!main) return '';
  return `<div data-crawler>${siteNavigation(navigation)}<main>${main}</main>${siteFooter(input.settings)}</div>`;
}

/** What crawlers get for a page whose subject does not exist (docs/product.md §8: no error page for bots). */
export function renderMissingPage(head: PageHead): string {
  return `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8">
    <title>${escapeHtml(head.title)}</title>
    <meta name="robots" content="noindex">
  </head>
  <body>
    <main>
      <h1>${escapeHtml(head.title.replace(/ - .*$/, ''))}</h1>
      <p>您访问的内容不存在或已被删除。</p>
      <p><a href="/">返回首页</a></p>
    </main>
  </body>
</html>
`;
}
