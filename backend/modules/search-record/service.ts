import { performance } from 'node:perf_hooks';
import dayjs from 'dayjs';
import type { BackendContext } from '../../platform/context';
import type { RpcContext } from '../../platform/rpc';
import type { SearchFilters, SearchHit, SearchIndex, SearchSort } from '../../platform/search/search-index';
import { clamp } from '../../wire/request';
import { insertSearchRecord, type NewSearchRecord, type SearchTarget } from './store';
import { addressKey } from '../../../shared/address-key';

// What other modules may ask of the search-record module: logging a search (documents and
// articles) under the security config's retention, and the site search that is logged.

export { SearchTarget, type NewSearchRecord } from './store';

const PAGE_SIZE = 10;
const MAX_PAGE = 10_000;

/**
 * Stores the search unless `security.search_record_retention_days` is 0 (searches not recorded) or its address has had
 * SEARCH_RECORD_LIMIT recorded this minute. Searching is a public GET: past the limit a loop of searches is still
 * answered, but grows `search_record` no further.
 */
export async function recordSearch(app: BackendContext, record: NewSearchRecord): Promise<void> {
  const retentionDays = (await app.settings.snapshot()).int('security', 'search_record_retention_days');
  if (retentionDays <= 0) return;
  const limit = app.searchRecordLimit;
  if (limit > 0 && (await app.minuteCounts.hit(`${addressKey(record.ip, app.ipv6Prefix)}|search-record`)).hits > limit)
    return;
  await insertSearchRecord(app.db, {
    ...record,
    keywords: [...record.keywords].slice(0, 255).join(''),
    userAgent: record.userAgent.slice(0, 512),
  });
}

/**
 * The `created_at` filter of a search request: one or two dates in most formats, server-local.
 * Without the second, no end (up to now): not this machine's now, which, behind the database's
 * clock the documents are stamped by, would leave out the newest.
 */
export function createdRange(values: readonly string[]): Pick<SearchFilters, 'createdFrom' | 'createdTo'> {
  const [from, to] = values.map((v) => dayjs(v.trim())).map((d) => (d.isValid() ? d : null));
  if (!from) return {};
  return { createdFrom: from.toISOString(), ...(to ? { createdTo: to.toISOString() } : {}) };
}

export interface SiteSearch<Row, Shown> {
  target: SearchTarget;
  index: SearchIndex;
  /** The words searched for, trimmed and not empty. */
  text: string;
  filters: SearchFilters;
  sort: SearchSort;
  /** The page asked for, before the `display.max_search_pages` cap. */
  page: number;
  /**
   * The rows of the hits that readers may still see, by id. The index may trail a change by a
   * moment: a hit without a row is dropped.
   */
  visibleRows: (ids: number[]) => Promise<Map<number, Row>>;
  /** The rows as the reply lists them; `hits[i]` is the hit of `rows[i]`. */
  present: (rows: Row[], hits: SearchHit[]) => Promise<Shown[]>;
}

/**
 * A search of the site as the contract pages it (10 a page, at most `display.max_search_pages`
 * pages), logged with the caller, the total and the seconds it took.
 */
export async function loggedSearch<Row, Shown>(
  ctx: RpcContext,
  search: SiteSearch<Row, Shown>,
): Promise<{ total: number; spend: string; shown: Shown[] }> {
  const started = performance.now();
  const maxPages = (await ctx.app.settings.snapshot()).int('display', 'max_search_pages');
  const page = clamp(search.page, 1, maxPages > 0 ? Math.min(maxPages, MAX_PAGE) : MAX_PAGE);
  const result = await search.index.search({
    text: search.text,
    filters: search.filters,
    sort: search.sort,
    page,
    size: PAGE_SIZE,
    // Counted no further than the total can show, and a page more: the hits dropped below
    // (at most a page) then still leave the capped total whole. Uncapped, a word found in
    // 15,915 of 20,000 documents was counted to its end on every page.
    ...(maxPages > 0 ? { maxTotal: (maxPages + 1) * PAGE_SIZE } : {}),
  });
  const rows = await search.visibleRows(result.hits.map((hit) => hit.id));
  const hits = result.hits.filter((hit) => rows.has(hit.id));
  const shown = await search.present(
    hits.map((hit) => rows.get(hit.id)!),
    hits,
  );
  // The hits dropped here are not counted either (the others' staleness cannot be known without reading them).
  const found = result.total - (result.hits.length - hits.length);
  const total = maxPages > 0 ? Math.min(found, maxPages * PAGE_SIZE) : found;
  const seconds = (performance.now() - started) / 1000;
  const agent = ctx.request.headers['user-agent'];
  await recordSearch(ctx.app, {
    type: search.target,
    userId: ctx.user?.id ?? 0,
    ip: ctx.ip,
    userAgent: (Array.isArray(agent) ? agent[0] : agent) ?? '',
    keywords: search.text,
    page,
    total,
    spendTime: seconds,
  });
  return { total, spend: seconds.toFixed(3), shown };
}
