import { performance } from 'node:perf_hooks';
import dayjs from 'dayjs';
import type { SearchFilters, SearchSort } from '../../platform/search/search-index';
import type { Decoded } from '../../wire/message';
import { clamp, positiveIds } from '../../wire/request';
import { rpc, type RpcContext } from '../../platform/rpc';
import { SearchTarget, recordSearch } from '../search-record/service';
import { ListArticleRequest, SearchArticleReply } from './messages';
import { listRowsByIds } from './store';
import { presentArticles } from './view';

// ArticleAPI.SearchArticle, full-text: the engine of platform/search (collection 'article',
// kept up to date by this module's writes) over titles, keywords, descriptions and bodies,
// 2-character Chinese words and mixed queries, with highlighted titles and snippets. Paging
// and reply follow the contract (10 a page, `display.max_search_pages`); unlike MOREDOC every
// word must match and only published articles are found. Each search is logged (type 1).

const PAGE_SIZE = 10;
const MAX_PAGE = 10_000;

/** `sort`: `latest`, or a column name (descending); anything else ranks by relevance. */
const SORTS: Readonly<Record<string, SearchSort>> = {
  latest: 'newest', created_at: 'newest', id: 'newest', view_count: 'views', favorite_count: 'favorites', comment_count: 'comments',
};

/** `created_at`: one or two dates in most formats; the end defaults to now. */
function filtersOf(req: Decoded<typeof ListArticleRequest>): SearchFilters {
  const filters: SearchFilters = {};
  const [from, to] = req.created_at.map((v) => dayjs(v.trim())).map((d) => (d.isValid() ? d : null));
  if (from) {
    filters.createdFrom = from.toISOString();
    filters.createdTo = (to ?? dayjs()).toISOString();
  }
  const categoryIds = positiveIds(req.category_id);
  if (categoryIds.length) filters.categoryIds = categoryIds;
  const [userId] = positiveIds(req.user_id);
  if (userId) filters.userId = userId;
  return filters;
}

function userAgentOf(ctx: RpcContext): string {
  const agent = ctx.request.headers['user-agent'];
  return (Array.isArray(agent) ? agent[0] : agent) ?? '';
}

export const searchRpcs = [
  rpc('SearchArticle', {
    http: 'GET /api/v1/article/search', request: ListArticleRequest, response: SearchArticleReply, auth: 'public',
    async handler(req, ctx) {
      const started = performance.now();
      const text = req.wd.trim();
      if (!text) return {};
      const cfg = await ctx.app.settings.snapshot();
      const maxPages = cfg.int('display', 'max_search_pages');
      const page = clamp(req.page, 1, maxPages > 0 ? Math.min(maxPages, MAX_PAGE) : MAX_PAGE);
      const result = await ctx.app.search.article.search({
        text, filters: filtersOf(req), sort: SORTS[req.sort.trim().toLowerCase()] ?? 'relevance', page, size: PAGE_SIZE,
      });
      // The index may trail a change by a moment: a hit readers may no longer see is dropped.
      const rows = new Map((await listRowsByIds(ctx.db, result.hits.map((h) => h.id))).map((r) => [r.id, r]));
      const hits = result.hits.filter((hit) => rows.has(hit.id));
      const shown = await presentArticles(ctx.db, hits.map((hit) => rows.get(hit.id)!));
      const article = shown.map((a, i) => ({ ...a, title_highlight: hits[i]!.titleHighlight, snippet: hits[i]!.snippet }));
      const found = result.total - (result.hits.length - article.length);
      const total = maxPages > 0 ? Math.min(found, maxPages * PAGE_SIZE) : found;
      const seconds = (performance.now() - started) / 1000;
      await recordSearch(ctx.app, {
        type: SearchTarget.Article, userId: ctx.user?.id ?? 0, ip: ctx.ip, userAgent: userAgentOf(ctx), keywords: text, page, total, spendTime: seconds,
      });
      return { total, spend: seconds.toFixed(3), article };
    },
  }),
];
