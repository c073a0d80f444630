import { documentTypeExtensions } from '../../../shared/constants';
import type { SearchFilters, SearchHit, SearchSort } from '../../platform/search/search-index';
import { positiveIds } from '../../wire/request';
import type { Decoded } from '../../wire/message';
import { defineService, rpc } from '../../platform/rpc';
import { documentsByIds, isSearchable, presentDocuments, type WireDocument } from '../document/service';
import { SearchTarget, createdRange, loggedSearch } from '../search-record/service';
import { SearchDocumentReply, SearchDocumentRequest } from '../../../shared/messages/document-search';

// DocumentAPI.SearchDocument, full-text (docs/architecture.md, "Documents"): the engine of platform/search
// (collection 'document', kept up to date by the document module) finds 2-character Chinese
// words and mixed queries in titles, keywords, descriptions and the extracted text, and cuts
// highlighted snippets. Request, paging and reply follow the contract; unlike MOREDOC (LIKE
// over title/keywords/description, words OR-ed, no status filter) every word must match and
// only documents strangers may see and read (not failed in conversion) are found. Each search is logged per the
// security config.

/** `sort`: `latest`, or a column name (descending); anything else ranks by relevance. */
const SORTS: Readonly<Record<string, SearchSort>> = {
  latest: 'newest',
  created_at: 'newest',
  id: 'newest',
  view_count: 'views',
  download_count: 'downloads',
  favorite_count: 'favorites',
  comment_count: 'comments',
  score: 'score',
};

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

/**
 * A hit as the lists show a document (uploader, categories, file hash), the counters always
 * hidden (contract), and our highlights. The snippet never shows a page past the free preview
 * (the index keeps the free pages' extent, indexing.ts); a document found only there names the
 * page (`match_page`) and which of the query's words are there (`match_words`), with none of its
 * text (docs/decisions/057); a visitor of a site open to members only gets no text at all,
 * snippet or description (decision 097).
 */
function withHighlights(doc: WireDocument, hit: SearchHit, withText: boolean) {
  const { download_count: _downloads, view_count: _views, favorite_count: _favorites, ...shown } = doc;
  return {
    ...shown,
    title_highlight: hit.titleHighlight,
    snippet: withText ? hit.snippet : '',
    snippet_page: hit.page,
    match_page: hit.matchPage,
    // The query's own words, found on that page: what the reader's find looks for there.
    match_words: withText ? hit.matchWords : [],
  };
}

export const documentSearchService = defineService('DocumentAPI', [
  rpc('SearchDocument', {
    http: 'GET /api/v1/document/search',
    request: SearchDocumentRequest,
    response: SearchDocumentReply,
    auth: 'public',
    async handler(req, ctx) {
      const text = req.wd.trim();
      if (!text) return {};
      const cfg = await ctx.app.settings.snapshot();
      const { total, spend, shown } = await loggedSearch(ctx, {
        target: SearchTarget.Document,
        index: ctx.app.search.document,
        text,
        filters: filtersOf(req),
        sort: SORTS[req.sort.trim().toLowerCase()] ?? 'relevance',
        page: req.page,
        // Only the documents strangers may see.
        visibleRows: async (ids) =>
          new Map((await documentsByIds(ctx.db, ids)).filter(isSearchable).map((r) => [r.id, r])),
        // The counters are left out whoever asks (withHighlights); the description as a list gives it.
        present: async (rows, hits) =>
          (await presentDocuments(ctx.db, rows, { viewer: { userId: ctx.user?.id ?? null, admin: false }, cfg })).map(
            (doc, i) => withHighlights(doc, hits[i]!, !cfg.withholdsText(ctx.user?.id ?? null)),
          ),
      });
      return { total, spend, document: shown };
    },
  }),
]);
