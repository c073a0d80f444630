// The <head> of every page: title (`文档标题 - 站点名`), description, keywords, canonical URL,
// Open Graph, JSON-LD (DigitalDocument / Article, BreadcrumbList) and robots, computed from
// the route, the settings and the page's data. The gateway writes it into the page it serves;
// the SPA applies the same on client-side navigation, so both always agree.
import { DocumentStatus } from './constants';
import { findAnswer, type CallAnswer } from './api-call';
import {
  ARTICLE_PAGE_SIZE,
  HOT_PAGE_SIZE,
  HOT_SUMMARY,
  LIBRARY_PAGE_SIZE,
  SEARCH_PAGE_SIZE,
  articleCall,
  articleCategoryIds,
  articleCategoryOf,
  articleListCall,
  articleListRequest,
  articleListState,
  articleSearchCall,
  documentCall,
  hotDocumentsCall,
  hotPageOf,
  isPastLastPage,
  libraryCall,
  libraryRequest,
  libraryState,
  searchCall,
  searchRequest,
  searchState,
} from './page-data';
import { articlePagePath, articleShownCategory, categoryPagePath, documentPagePath } from './page-paths';
import { isIndexable } from './robots';
import { unreachable } from './unreachable';
import type { RouteMatch } from './routes';
import type { Article } from './types/article';
import type { Category } from './types/category';
import type { Settings } from './types/config';
import type { Document } from './types/document';

export interface PageInput {
  /** The page's path (normalised) and its query string, first value of each key. */
  path: string;
  query: Readonly<Record<string, string>>;
  match: RouteMatch | undefined;
  settings: Settings;
  /** Every category (the start data's). */
  categories: readonly Category[];
  /** Where the site is, for absolute URLs: `https://docs.example.com`. */
  origin: string;
  /** The answers of the page's calls that are known (the page's route data, or the SPA's cache). */
  answers: readonly CallAnswer[];
  /** The page's subject does not exist (its call answered 404). */
  missing?: boolean;
  /** The site is closed to this visitor (security.is_close): the page is the closed notice. */
  closed?: boolean;
}

export interface Crumb {
  name: string;
  path: string;
}

export type JsonLd = Readonly<Record<string, unknown>>;

export interface PageHead {
  title: string;
  description: string;
  keywords: string;
  /** `noindex, nofollow` for pages no search engine should list. */
  robots?: string;
  canonical?: string;
  /** `og:*` properties in order. */
  openGraph: readonly (readonly [property: string, content: string])[];
  jsonLd: readonly JsonLd[];
}

const NOINDEX = 'noindex, nofollow';
/** The heading of the closed site's notice (the SPA's 站点已关闭 screen). */
export const SITE_CLOSED_TITLE = '站点已关闭';
const DESCRIPTION_MAX = 160;
/**
 * The longest title, in characters: what Baidu shows of a title on a computer (about 30 Chinese
 * characters are shown on a phone). A longer subject is cut so that the site's name still ends it.
 */
export const TITLE_MAX = 60;
/** What is kept of a subject at least, however long the site's name. */
const TITLE_SUBJECT_MIN = 20;
const DEFAULT_SITE_NAME = '文库';

export function siteNameOf(settings: Settings): string {
  return settings.system?.sitename || settings.system?.title || DEFAULT_SITE_NAME;
}

/** One line of at most `max` characters (code points), an ellipsis when cut. */
export function summary(text: string | undefined, max = DESCRIPTION_MAX): string {
  const chars = [...(text ?? '').replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** The category and its ancestors, root first (a cycle or a missing parent ends the walk). */
export function categoryTrail(categories: readonly Category[], id: number | undefined): Category[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const trail: Category[] = [];
  const seen = new Set<number>();
  for (
    let current = byId.get(id);
    current?.id !== undefined && !seen.has(current.id);
    current = byId.get(current.parent_id)
  ) {
    seen.add(current.id);
    trail.unshift(current);
  }
  return trail;
}

const absolute = (origin: string, path: string) =>
  /^https?:\/\//i.test(path) ? path : `${origin}${path.startsWith('/') ? '' : '/'}${path}`;

function pageNumber(query: Readonly<Record<string, string>>): number {
  const page = Number(query.page);
  return Number.isInteger(page) && page > 1 ? page : 1;
}

/** The document the page shows, when its data is known. */
function documentOf(input: PageInput): Document | undefined {
  const id = Number(input.match?.params.id);
  return Number.isInteger(id) && id > 0 ? findAnswer(input.answers, documentCall(id)) : undefined;
}

/**
 * The article a page shows, by id or identifier: that of `/article/{category?}/detail/{id}`,
 * or `/article/{x}` where x is no article category (`/article/about`).
 */
export function pageArticleKey(match: RouteMatch | undefined, categories: readonly Category[]): string | undefined {
  if (match?.route.name === 'article-category-detail-id') return match.params.id;
  if (match?.route.name !== 'article-category') return undefined;
  const x = match.params.category;
  return x !== undefined && !articleCategoryOf(categories, x) ? x : undefined;
}

/** The article the page shows, when its data is known. */
function articleOf(input: PageInput): Article | undefined {
  const key = pageArticleKey(input.match, input.categories);
  return key === undefined ? undefined : findAnswer(input.answers, articleCall(key));
}

/** A tag that ends a block of text: a space in its place keeps the words on either side apart. */
const BLOCK_TAG = /^<\/?(p|div|br|hr|h[1-6]|li|ul|ol|tr|td|th|table|blockquote|pre|section|article)\b/i;

/**
 * The text of some HTML, as typed in an article body or a description (`一篇关于<b>城市</b>的文档`):
 * tags out (an inline one leaves nothing, so no space cuts a Chinese phrase), the common entities
 * decoded once. Only `<` before a letter, `/`, `!` or `?` starts a tag, so `a < b` or `x<2` stays.
 */
export function htmlText(html: string | undefined): string {
  const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return (html ?? '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[a-z][^<>]*>|<[!?][^<>]*>/gi, (tag) => (BLOCK_TAG.test(tag) ? ' ' : ''))
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      const code =
        name[0] === '#'
          ? name[1] === 'x' || name[1] === 'X'
            ? parseInt(name.slice(2), 16)
            : Number(name.slice(1))
          : NaN;
      if (Number.isInteger(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      return entities[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A document category's page whose category the site does not show (none with that id, an
 * article category's, or a disabled one): the page is answered 404, as the SPA says 分类不存在.
 */
export function isMissingCategory(match: RouteMatch | undefined, categories: readonly Category[]): boolean {
  return match?.route.name === 'library-category' && !pageCategoryOf(match, categories);
}

/**
 * The category whose list the page shows: an enabled document category under /library, an
 * enabled article category under /article; none for an id of another type or a disabled one.
 */
function pageCategoryOf(match: RouteMatch | undefined, categories: readonly Category[]): Category | undefined {
  if (match?.route.name === 'article-category') return articleCategoryOf(categories, match.params.category);
  if (match?.route.name !== 'library-category') return undefined;
  const id = Number(match.params.category);
  return categories.find((c) => c.id === id && (c.type ?? 0) === 0 && c.enable !== false);
}

/** Where a page of a list stands: its page number, the list's length and its page size. */
export interface ListPosition {
  page: number;
  total: number;
  size: number;
}

/** How many pages a list has (at least one). */
export const pagesOf = (position: ListPosition) => Math.max(1, Math.ceil(position.total / position.size));

/**
 * The position of a list page (the library and its categories, an article list, a search, /hot)
 * once its answer is known: from the same calls as the page's (shared/routes.ts). `today` is what
 * a search's period counts back from, as for the page's call (searchPageCalls).
 */
export function listPosition(
  input: Pick<PageInput, 'match' | 'query' | 'categories' | 'answers'>,
  today = Date.now(),
): ListPosition | undefined {
  const { match, query, categories, answers } = input;
  const position = (page: number, total: number | undefined, size: number): ListPosition => ({
    page,
    total: total ?? 0,
    size,
  });
  switch (match?.route.name) {
    case 'library':
    case 'library-category': {
      const state = libraryState(query);
      const id = Number(match.params.category) || undefined;
      const list = findAnswer(answers, libraryCall(libraryRequest(id, state)));
      return list && position(state.page, list.total, LIBRARY_PAGE_SIZE);
    }
    case 'article-category': {
      if (pageArticleKey(match, categories) !== undefined) return undefined;
      const state = articleListState(query);
      const category = articleCategoryOf(categories, match.params.category);
      const ids = category?.id ? articleCategoryIds(categories, category.id) : [];
      const total = state.wd
        ? findAnswer(answers, articleSearchCall(state.wd, state.page, ids))?.total
        : findAnswer(answers, articleListCall(articleListRequest(ids, state.page)))?.total;
      return total === undefined
        ? undefined
        : position(state.page, total, state.wd ? SEARCH_PAGE_SIZE : ARTICLE_PAGE_SIZE);
    }
    case 'search': {
      const state = searchState(query);
      const reply = state.wd ? findAnswer(answers, searchCall(searchRequest(state, today))) : undefined;
      return reply && position(state.page, reply.total, SEARCH_PAGE_SIZE);
    }
    case 'hot': {
      const page = hotPageOf(query);
      const reply = findAnswer(answers, hotDocumentsCall(page));
      return reply && position(page, reply.total, HOT_PAGE_SIZE);
    }
    default:
      return undefined;
  }
}

/**
 * A page of a list past its last page (`?page=99` of a list of two, isPastLastPage): answered
 * 404, as a page whose subject does not exist, not an empty list with 200 that search engines
 * take for a page.
 */
export function isPastTheEnd(
  input: Pick<PageInput, 'match' | 'query' | 'categories' | 'answers'>,
  today = Date.now(),
): boolean {
  const position = listPosition(input, today);
  return !!position && isPastLastPage(position.page, position.total, position.size);
}

/** The breadcrumbs of a page, home first (empty for pages that have none). */
export function pageTrail(input: PageInput): Crumb[] {
  const route = input.match?.route;
  if (!route || !isIndexable(route)) return [];
  const home: Crumb = { name: '首页', path: '/' };
  const library: Crumb = { name: '文库资料', path: '/library' };
  const articles: Crumb = { name: '文章资讯', path: '/article' };
  const crumbsOf = (trail: readonly Category[]) =>
    trail.map((c) => ({ name: c.title ?? '', path: categoryPagePath(c) }));
  switch (route.name) {
    case 'library':
      return [home, library];
    case 'library-category':
      return [home, library, ...crumbsOf(categoryTrail(input.categories, Number(input.match?.params.category)))];
    case 'library-category-id': {
      const doc = documentOf(input);
      const categoryId = doc?.category?.[doc.category.length - 1]?.id ?? Number(input.match?.params.category);
      const crumbs = [home, library, ...crumbsOf(categoryTrail(input.categories, categoryId))];
      return doc?.title ? [...crumbs, { name: doc.title, path: documentPagePath(doc) ?? input.path }] : crumbs;
    }
    case 'article-category':
    case 'article-category-detail-id': {
      const key = pageArticleKey(input.match, input.categories);
      if (key === undefined)
        return [home, articles, ...crumbsOf(categoryTrail(input.categories, Number(input.match?.params.category)))];
      // An article: as the reader shows it; a path's category while the article is not known.
      const article = articleOf(input);
      const pathCategory = Number(input.match?.params.category);
      const categoryId = article ? articleShownCategory(article, pathCategory) : pathCategory || undefined;
      const crumbs = [home, articles, ...crumbsOf(categoryTrail(input.categories, categoryId))];
      return article?.title ? [...crumbs, { name: article.title, path: articlePagePath(article) }] : crumbs;
    }
    case 'search':
      return [home, { name: '搜索', path: '/search' }];
    case 'index':
    case 'vip':
    case 'hot':
      return [];
    default:
      return unreachable(route.name);
  }
}

function breadcrumbLd(origin: string, trail: readonly Crumb[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.name,
      item: absolute(origin, crumb.path),
    })),
  };
}

interface Parts {
  title: string;
  description?: string;
  keywords?: string;
  canonicalPath?: string;
  ogType?: string;
  image?: string;
  jsonLd?: JsonLd[];
  robots?: string;
}

function documentParts(input: PageInput, site: string): Parts {
  const doc = documentOf(input);
  if (input.missing) return { title: `文档不存在 - ${site}`, robots: NOINDEX };
  if (!doc) return { title: `${input.match?.route.title ?? '文档详情'} - ${site}`, canonicalPath: input.path };
  const canonicalPath = documentPagePath(doc) ?? input.path;
  const description = summary(htmlText(doc.description) || doc.content || doc.title);
  const cover = doc.attachment?.hash ? `/view/cover/${doc.attachment.hash}` : undefined;
  const author = doc.user?.username || doc.username;
  const digitalDocument: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'DigitalDocument',
    name: doc.title ?? '',
    description,
    url: absolute(input.origin, canonicalPath),
    inLanguage: 'zh-CN',
    ...(doc.keywords ? { keywords: doc.keywords } : {}),
    ...(doc.created_at ? { datePublished: doc.created_at } : {}),
    ...(doc.updated_at ? { dateModified: doc.updated_at } : {}),
    ...(author ? { author: { '@type': 'Person', name: author } } : {}),
    ...(cover ? { thumbnailUrl: absolute(input.origin, cover) } : {}),
    ...(doc.ext ? { fileFormat: doc.ext.replace(/^\./, '') } : {}),
    isAccessibleForFree: !doc.price,
  };
  return {
    title: `${doc.title ?? '文档详情'} - ${site}`,
    description,
    keywords: doc.keywords,
    // A failed conversion leaves nothing to read (the sitemaps and search leave it out too).
    ...(doc.status === DocumentStatus.Failed ? { robots: NOINDEX } : {}),
    canonicalPath,
    ogType: 'article',
    ...(cover ? { image: cover } : {}),
    jsonLd: [digitalDocument],
  };
}

/** An `<img>`'s address in some HTML: double-quoted, single-quoted or bare. */
const IMG_SRC = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/**
 * The first picture of an article's body that a sharing app can fetch, for its card: an
 * http(s) address or a path on this site, not a `data:` image nor a path relative to the page.
 */
function firstImageOf(html: string | undefined): string | undefined {
  for (const [, double, single, bare] of (html ?? '').matchAll(IMG_SRC)) {
    const src = htmlText(double ?? single ?? bare);
    if (/^https?:\/\//i.test(src) || /^\/(?!\/)/.test(src)) return src;
  }
  return undefined;
}

function articleParts(input: PageInput, site: string): Parts {
  if (input.missing) return { title: `文章不存在 - ${site}`, robots: NOINDEX };
  const article = articleOf(input);
  if (!article) return { title: `文章详情 - ${site}`, canonicalPath: input.path };
  const canonicalPath = articlePagePath(article);
  const description = summary(htmlText(article.description) || htmlText(article.content) || article.title);
  const author = article.author || article.user?.username;
  const title = article.title || '无标题';
  const image = firstImageOf(article.content);
  const articleLd: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    // Search engines show at most 110 characters of a headline.
    headline: summary(title, 110),
    description,
    url: absolute(input.origin, canonicalPath),
    mainEntityOfPage: absolute(input.origin, canonicalPath),
    inLanguage: 'zh-CN',
    ...(article.keywords ? { keywords: article.keywords } : {}),
    ...(article.created_at ? { datePublished: article.created_at } : {}),
    ...(article.updated_at ? { dateModified: article.updated_at } : {}),
    ...(author ? { author: { '@type': 'Person', name: author } } : {}),
    publisher: { '@type': 'Organization', name: site },
    ...(image ? { image: absolute(input.origin, image) } : {}),
  };
  return {
    title: `${title} - ${site}`,
    description,
    keywords: article.keywords,
    canonicalPath,
    ogType: 'article',
    ...(image ? { image } : {}),
    jsonLd: [articleLd],
  };
}

/** A list's page past the first says its number in the title: （第 2 页）. */
const pageSuffix = (page: number) => (page > 1 ? `（第 ${page} 页）` : '');
/** A list's address at its page: each page is its own, canonical to itself. */
const pagedPath = (path: string, page: number) =>
  page > 1 ? `${path}${path.includes('?') ? '&' : '?'}page=${page}` : path;

/** A list's page past its last (isPastTheEnd). */
const pastTheEnd = (site: string): Parts => ({ title: `页面不存在 - ${site}`, robots: NOINDEX });

function categoryParts(input: PageInput, site: string, listPath: string): Parts {
  const category = pageCategoryOf(input.match, input.categories);
  const page = pageNumber(input.query);
  const base = category ? categoryPagePath(category) : listPath;
  const canonicalPath = pagedPath(base, page);
  // The gateway and the SPA say so (`missing`) when isMissingCategory or isPastTheEnd holds.
  if (input.missing)
    return category || !input.match?.params.category
      ? pastTheEnd(site)
      : { title: `分类不存在 - ${site}`, robots: NOINDEX };
  const about = summary(input.settings.system?.description, 100);
  if (!category) {
    const title = input.match?.route.title ?? '';
    return {
      title: `${title}${pageSuffix(page)} - ${site}`,
      description: `${site}的${title}${about ? `：${about}` : ''}${pageSuffix(page)}`,
      canonicalPath,
    };
  }
  return {
    title: `${category.title}${pageSuffix(page)} - ${site}`,
    description: `${summary(category.description) || `${site}的“${category.title}”分类${about ? `：${about}` : ''}`}${pageSuffix(page)}`,
    keywords: [category.title, input.settings.system?.keywords].filter(Boolean).join(','),
    canonicalPath,
    ...(category.cover ? { image: category.cover } : {}),
  };
}

function partsOf(input: PageInput, site: string): Parts {
  const route = input.match?.route;
  if (input.closed) return { title: `${SITE_CLOSED_TITLE} - ${site}`, robots: NOINDEX };
  if (!route) return { title: `页面不存在 - ${site}`, robots: NOINDEX };
  if (!isIndexable(route)) return { title: `${route.title} - ${site}`, robots: NOINDEX };
  const system = input.settings.system ?? {};
  switch (route.name) {
    case 'index':
      return {
        title: system.title || site,
        canonicalPath: '/',
        ogType: 'website',
        ...(system.logo ? { image: system.logo } : {}),
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'WebSite',
            name: site,
            url: absolute(input.origin, '/'),
            ...(system.description ? { description: summary(system.description) } : {}),
            potentialAction: {
              '@type': 'SearchAction',
              target: `${absolute(input.origin, '/search')}?wd={search_term_string}`,
              'query-input': 'required name=search_term_string',
            },
          },
        ],
      };
    case 'library-category-id':
      return documentParts(input, site);
    case 'library':
    case 'library-category':
      return categoryParts(input, site, '/library');
    case 'article-category': {
      if (pageArticleKey(input.match, input.categories) !== undefined) return articleParts(input, site);
      // An article list's page past its last (an article category the site does not show is an article's key).
      if (input.missing) return pastTheEnd(site);
      // With `wd` the list pages show the article search's hits: titled after the words, as /search is.
      const { wd, page } = articleListState(input.query);
      const words = summary(wd, 40);
      if (words)
        return {
          title: `“${words}”的文章搜索结果${pageSuffix(page)} - ${site}`,
          description: `在${site}搜索“${words}”的文章${pageSuffix(page)}`,
          canonicalPath: pagedPath(`/article?wd=${encodeURIComponent(wd)}`, page),
        };
      return input.match?.params.category
        ? categoryParts(input, site, '/article')
        : {
            title: `${route.title}${pageSuffix(page)} - ${site}`,
            description: `${site}的${route.title}${pageSuffix(page)}`,
            canonicalPath: pagedPath('/article', page),
          };
    }
    case 'article-category-detail-id':
      return articleParts(input, site);
    case 'search': {
      if (input.missing) return pastTheEnd(site);
      const { wd, page } = searchState(input.query);
      const words = summary(wd, 40);
      return {
        title: words ? `“${words}”的搜索结果${pageSuffix(page)} - ${site}` : `${route.title} - ${site}`,
        description: words ? `在${site}搜索“${words}”的文档${pageSuffix(page)}` : undefined,
        // The words and the page: the filters and the order show the same documents sorted or narrowed.
        canonicalPath: words ? pagedPath(`/search?wd=${encodeURIComponent(wd)}`, page) : '/search',
      };
    }
    case 'vip': {
      const vip = input.settings.vip ?? {};
      return {
        title: `${vip.title || route.title} - ${site}`,
        description: summary(vip.description) || undefined,
        canonicalPath: '/vip',
      };
    }
    case 'hot': {
      if (input.missing) return pastTheEnd(site);
      // Each page of the ranking is its own page, as a category's are.
      const page = hotPageOf(input.query);
      return {
        title: `${route.title}${pageSuffix(page)} - ${site}`,
        description: `${site}的${route.title}：${HOT_SUMMARY}${pageSuffix(page)}`,
        canonicalPath: pagedPath('/hot', page),
      };
    }
    default:
      return unreachable(route.name);
  }
}

export function pageHead(input: PageInput): PageHead {
  const site = siteNameOf(input.settings);
  const system = input.settings.system ?? {};
  const parts = partsOf(input, site);
  const suffix = ` - ${site}`;
  const subject = parts.title.endsWith(suffix) ? parts.title.slice(0, -suffix.length) : undefined;
  const title =
    subject !== undefined
      ? `${summary(subject, Math.max(TITLE_MAX - [...suffix].length, TITLE_SUBJECT_MIN))}${suffix}`
      : summary(parts.title, TITLE_MAX);
  const description = parts.description || summary(system.description);
  const keywords = parts.keywords || system.keywords || '';
  const canonical = parts.robots ? undefined : parts.canonicalPath && absolute(input.origin, parts.canonicalPath);
  const trail = parts.robots ? [] : pageTrail(input);
  const jsonLd = [...(parts.jsonLd ?? []), ...(trail.length > 1 ? [breadcrumbLd(input.origin, trail)] : [])];
  const openGraph: [string, string][] = parts.robots
    ? []
    : [
        ['og:site_name', site],
        ['og:title', subject ?? parts.title],
        ['og:description', description],
        ['og:type', parts.ogType ?? 'website'],
        ['og:locale', 'zh_CN'],
        ...(canonical ? [['og:url', canonical] as [string, string]] : []),
        ...(parts.image ? [['og:image', absolute(input.origin, parts.image)] as [string, string]] : []),
      ];
  return {
    title,
    description,
    keywords,
    ...(parts.robots ? { robots: parts.robots } : {}),
    ...(canonical ? { canonical } : {}),
    openGraph,
    jsonLd,
  };
}
