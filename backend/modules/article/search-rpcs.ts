import type { SearchFilters, SearchSort } from '../../platform/search/search-index';
import type { Decoded } from '../../wire/message';
import { positiveIds } from '../../wire/request';
import { rpc } from '../../platform/rpc';
import { SearchTarget, createdRange, loggedSearch } from '../search-record/service';
import { ListArticleRequest, SearchArticleReply } from '../../../shared/messages/article';
import { listRowsByIds } from './store';
import { articleTextReadable, presentArticles, readableArticles } from './view';

// ArticleAPI.SearchArticle, full-text: the engine of platform/search (collection 'article',
// kept up to date by this module's writes) over titles, keywords, descriptions and bodies,
// 2-character Chinese words and mixed queries, with highlighted titles and snippets. Paging
// and reply follow the contract (10 a page, `display.max_search_pages`); unlike MOREDOC every
// word must match and only published articles are found. Each search is logged (type 1).

/** `sort`: `latest`, or a column name (descending); anything else ranks by relevance. */
const SORTS: Readonly<Record<string, SearchSort>> = {
  latest: 'newest',
  created_at: 'newest',
  id: 'newest',
  view_count: 'views',
  favorite_count: 'favorites',
  comment_count: 'comments',
};

function filtersOf(req: Decoded<typeof ListArticleRequest>): SearchFilters {
  const filters: SearchFilters = { ...createdRange(req.created_at) };
  const categoryIds = positiveIds(req.category_id);
  if (categoryIds.length) filters.categoryIds = categoryIds;
  const [userId] = positiveIds(req.user_id);
  if (userId) filters.userId = userId;
  return filters;
}

export const searchRpcs = [
  rpc('SearchArticle', {
    http: 'GET /api/v1/article/search',
    request: ListArticleRequest,
    response: SearchArticleReply,
    auth: 'public',
    async handler(req, ctx) {
      const text = req.wd.trim();
      if (!text) return {};
      const { total, spend, shown } = await loggedSearch(ctx, {
        target: SearchTarget.Article,
        index: ctx.app.search.article,
        text,
        filters: filtersOf(req),
        sort: SORTS[req.sort.trim().toLowerCase()] ?? 'relevance',
        page: req.page,
        // Only published articles come back.
        visibleRows: async (ids) => new Map((await listRowsByIds(ctx.db, ids)).map((r) => [r.id, r])),
        // A visitor of a site open to members only gets the titles alone, but for the footer's pages (decision 097).
        present: async (rows, hits) => {
          const readable = await articleTextReadable(ctx);
          return (await readableArticles(ctx, await presentArticles(ctx.db, rows))).map((a, i) => ({
            ...a,
            title_highlight: hits[i]!.titleHighlight,
            snippet: readable(a.identifier) ? hits[i]!.snippet : '',
          }));
        },
      });
      return { total, spend, article: shown };
    },
  }),
];
