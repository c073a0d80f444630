import { performance } from 'node:perf_hooks';
import dayjs from 'dayjs';
import { documentTypeExtensions } from '../../../shared/constants';
import type { SearchFilters, SearchHit, SearchSort } from '../../platform/search/search-index';
import { clamp, positiveIds } from '../../wire/request';
import type { Decoded } from '../../wire/message';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { documentsByIds, isPublic, presentDocuments, type WireDocument } from '../document/service';
import { SearchTarget, recordSearch } from '../search-record/service';
import { SearchDocumentReply, SearchDocumentRequest } from './messages';

// DocumentAPI.SearchDocument, full-text (DESIGN §8): the engine of platform/search
// (collection 'document', kept up to date by the document module) finds 2-character Chinese
// words and mixed queries in titles, keywords, descriptions and the extracted text, and cuts
// highlighted snippets. Request, paging and reply follow the contract; unlike MOREDOC (LIKE
// over title/keywords/description, words OR-ed, no status filter) every word must match and
// only documents strangers may see are found. Each search is logged per the security config.

const PAGE_SIZE = 10;
const MAX_PAGE = 10_000;

/** `sort`: `latest`, or a column name (descending); anything else ranks by relevance. */
const SORTS: Readonly<Record<string, SearchSort>> = {
  latest: 'newest', created_at: 'newest', id: 'newest', view_count: 'views', download_count: 'downloads',
  favorite_count: 'favorites', comment_count: 'comments', score: 'score',
};

/** `created_at`: one or two dates in most formats, server-local; the end defaults to now. */
function createdRange(values: readonly string[]): Pick<SearchFilters, 'createdFrom' | 'createdTo'> {
  const [from, to] = values.map((v) => dayjs(v.trim())).map((d) => (d.isValid() ? d : null));
  if (!from) return {};
  return { createdFrom: from.toISOString(), createdTo: (to ?? dayjs()).toISOString() };
}

function filtersOf(req: Decoded<typeof SearchDocumentRequest>): SearchFilters {
  const filters: SearchFilters = { ...createdRange(req.created_at) };
  const categoryIds = positiveIds(req.category_id);
  if (categoryIds.length) filters.categoryIds = categoryIds;
  const exts = documentTypeExtensions(req.ext);
  if (exts) filters.exts = exts;
  const languages = req.language.map((l) => l.trim()).filter(Boolean);
  if (languages.length) filters.languages = languages;
  if (req.user_id > 0) filters.userId = req.user_id;
  return filters;
}

/** A hit as the lists show a document (uploader, categories, file hash), the counters always hidden (contract), and our highlights. */
function withHighlights(doc: WireDocument, hit: SearchHit) {
  const { download_count: _downloads, view_count: _views, favorite_count: _favorites, ...shown } = doc;
  return { ...shown, title_highlight: hit.titleHighlight, snippet: hit.snippet };
}

function userAgentOf(ctx: RpcContext): string {
  const agent = ctx.request.headers['user-agent'];
  return (Array.isArray(agent) ? agent[0] : agent) ?? '';
}

export const documentSearchService = defineService('DocumentAPI', [
  rpc('SearchDocument', {
    http: 'GET /api/v1/document/search', request: SearchDocumentRequest, response: SearchDocumentReply, auth: 'public',
    async handler(req, ctx) {
      const started = performance.now();
      const text = req.wd.trim();
      if (!text) return {};
      const cfg = await ctx.app.settings.snapshot();
      const maxPages = cfg.int('display', 'max_search_pages');
      const page = clamp(req.page, 1, maxPages > 0 ? Math.min(maxPages, MAX_PAGE) : MAX_PAGE);
      const result = await ctx.app.search.document.search({
        text, filters: filtersOf(req), sort: SORTS[req.sort.trim().toLowerCase()] ?? 'relevance', page, size: PAGE_SIZE,
      });
      // The index may trail a change by a moment: a hit whose document strangers may no longer see is dropped.
      const visible = new Map((await documentsByIds(ctx.db, result.hits.map((h) => h.id))).filter(isPublic).map((r) => [r.id, r]));
      const hits = result.hits.filter((hit) => visible.has(hit.id));
      const shown = await presentDocuments(ctx.db, hits.map((hit) => visible.get(hit.id)!), { viewer: { userId: null, admin: false }, cfg });
      const document = shown.map((doc, i) => withHighlights(doc, hits[i]!));
      // The hits dropped here are not counted either (the others' staleness cannot be known without reading them).
      const found = result.total - (result.hits.length - document.length);
      const total = maxPages > 0 ? Math.min(found, maxPages * PAGE_SIZE) : found;
      const seconds = (performance.now() - started) / 1000;
      await recordSearch(ctx.app, {
        type: SearchTarget.Document, userId: ctx.user?.id ?? 0, ip: ctx.ip, userAgent: userAgentOf(ctx), keywords: text, page, total, spendTime: seconds,
      });
      return { total, spend: seconds.toFixed(3), document };
    },
  }),
]);
