import dayjs from 'dayjs';
import { DocumentStatus, documentTypeExtensions } from '../../../shared/constants';
import { notFound } from '../../wire/errors';
import { databaseNow } from '../../db/dialect';
import type { Decoded } from '../../wire/message';
import { clamp, pick, positiveIds, selectedFields } from '../../wire/request';
import { isAdmin } from '../../platform/auth/session';
import { rpc, type RpcContext } from '../../platform/rpc';
import { categoriesWithDepth, enabledTopCategories } from '../category/service';
import { PUBLIC_PROFILE_COLUMNS, getUser } from '../user/service';
import { ALL_PAGES, freePages, readablePages, readablePagesOf, seesDocument } from './access';
import { conversionProgress } from './conversion';
import { keywordsOf, segmentTitle } from './keywords';
import { findInPages, foldWords } from './find';
import { countViewToday, hotDocuments } from './hot';
import { countSearchView } from './indexing';
import { rewardedUploadsLeft, uploadReward } from './upload-reward';
import {
  Document,
  DocumentScore,
  FindInDocumentReply,
  FindInDocumentRequest,
  GetDocumentRequest,
  ListDocumentForHomeRequest,
  ListDocumentForHomeResponse,
  ListDocumentReply,
  ListDocumentRequest,
  UploadRewardLeft,
} from '../../../shared/messages/document';
import { descriptionFrom, readableText } from './page-text';
import { hideCounters, presentDocuments, type Viewer } from './present';
import {
  DOCUMENT_COLUMNS,
  awaitsReviewConversion,
  WAITING_STATUSES,
  bumpCounter,
  cacheRelated,
  cachedRelated,
  categoryIdsOf,
  documentById,
  documentWithFile,
  documentsByIds,
  documentsInCategories,
  documentsMatchingWords,
  findScore,
  isPublic,
  listDocuments,
  newestConverted,
  textOf,
  updateDocuments,
  type DocumentFilter,
} from './store';

// DocumentAPI, what visitors and members read: lists, one document, the home page's
// sections, related documents, one's own rating.

const NOT_FOUND = '文档不存在';
/** What a stranger's list may hold: pending, converting, converted, failed (docs/moredoc.md §12). */
const LISTED_STATUSES = [
  DocumentStatus.Pending,
  DocumentStatus.Converting,
  DocumentStatus.Converted,
  DocumentStatus.Failed,
];
const HOME_COLUMNS = ['id', 'title', 'ext', 'uuid', 'pages'];
const RELATED_LIMIT = 10;
/** The hits FindInDocument answers at most (the reader lists them; more say "first 500"). */
const FIND_LIMIT = 500;
/** How much of the text GetDocument answers without `with_all_content` (MOREDOC's figure). */
const CONTENT_START = 8192;

export async function viewerOf(ctx: RpcContext): Promise<Viewer> {
  return { userId: ctx.user?.id ?? null, admin: ctx.user ? await isAdmin(ctx.db, ctx.user.id) : false };
}

/**
 * `created_at` filters: one or two dates in most formats, server-local. Without the second, no end
 * (up to now): not this machine's now, which, behind the database's clock the documents are
 * stamped by, would leave out the newest.
 */
function dateRange(values: readonly string[]): { createdFrom: string | null; createdTo: string | null } {
  const [from, to] = values.map((v) => dayjs(v.trim())).map((d) => (d.isValid() ? d : null));
  if (!from) return { createdFrom: null, createdTo: null };
  return { createdFrom: from.toISOString(), createdTo: to ? to.toISOString() : null };
}

/** The list filters of ListDocument and ListRecycleDocument (docs/moredoc.md §6, docs/api.md §7). */
export function documentFilter(
  req: Decoded<typeof ListDocumentRequest>,
  opts: { privileged: boolean; recycled: boolean },
): DocumentFilter {
  const limited = req.limit > 0;
  const requested = [...new Set(req.status)];
  const narrowed = requested.filter((s) => (LISTED_STATUSES as readonly number[]).includes(s));
  return {
    categoryIds: positiveIds(req.category_id),
    userId: req.user_id[0] ?? 0,
    languages: req.language.filter((l) => l.trim() !== ''),
    exts: documentTypeExtensions(req.ext) as string[] | null,
    ...dateRange(req.created_at),
    isRecommend: req.is_recommend.length === 1 ? req.is_recommend[0]! : null,
    feeType: req.fee_type === 'free' || req.fee_type === 'charge' ? req.fee_type : null,
    statuses: opts.privileged
      ? requested.length
        ? requested
        : null
      : narrowed.length
        ? narrowed
        : [...LISTED_STATUSES],
    wd: opts.privileged ? req.wd : '',
    recycled: opts.recycled,
    order: req.order,
    page: limited ? 1 : req.page,
    size: limited ? req.limit : opts.privileged ? req.size : clamp(req.size, 1, 24),
    withTotal: !limited,
  };
}

/**
 * The related documents of `doc`: those whose title or keywords hold its keywords (or its
 * title's words), then the most viewed of its deepest categories, then of any of its
 * categories, then the 热门文档 ranking, up to RELATED_LIMIT; kept `days` days. An empty list
 * (kept before the fallbacks existed) is computed again.
 */
async function relatedIds(
  ctx: RpcContext,
  doc: { id: number; keywords: string; title: string },
  days: number,
  fresh = false,
): Promise<number[]> {
  const cached = fresh ? null : await cachedRelated(ctx.db, doc.id);
  if (cached?.length) return cached;
  const words = (doc.keywords.trim() ? keywordsOf(doc.keywords) : segmentTitle(doc.title)).slice(0, 10);
  const ids = (await documentsMatchingWords(ctx.db, words, doc.id, RELATED_LIMIT)).map((d) => d.id);
  const categoryIds = (await categoryIdsOf(ctx.db, [doc.id])).get(doc.id) ?? [];
  const categories = await categoriesWithDepth(ctx.db, categoryIds);
  const deepest = Math.max(...categories.map((c) => c.depth));
  for (const within of [categories.filter((c) => c.depth === deepest).map((c) => c.id), categoryIds]) {
    const more = await documentsInCategories(ctx.db, within, [doc.id, ...ids], RELATED_LIMIT - ids.length);
    ids.push(...more.map((d) => d.id));
  }
  if (ids.length < RELATED_LIMIT)
    ids.push(...(await hotDocuments(ctx.db, 1, RELATED_LIMIT - ids.length, [doc.id, ...ids])).rows.map((d) => d.id));
  await cacheRelated(ctx.db, doc.id, ids, dayjs().add(days, 'day').toISOString());
  return ids;
}

export const readRpcs = [
  rpc('ListDocument', {
    http: 'GET /api/v1/document/list',
    request: ListDocumentRequest,
    response: ListDocumentReply,
    auth: 'public',
    permission: '获取文档列表',
    async handler(req, ctx) {
      const privileged = ctx.permitted || (ctx.user !== null && req.user_id[0] === ctx.user.id);
      const { rows, total } = await listDocuments(ctx.db, documentFilter(req, { privileged, recycled: false }));
      const fields = selectedFields(req.field, DOCUMENT_COLUMNS);
      // Ours: the admins' list says how far each conversion underway is (with the status it goes with), so that its
      // rows need not ask GetDocument, which answers 404 for a hidden one (in review) to an admin who may list
      // documents but not read hidden ones (decision 096).
      const withProgress = ctx.permitted && (!fields || fields.includes('status'));
      const [presented, progress] = await Promise.all([
        presentDocuments(ctx.db, rows, { viewer: await viewerOf(ctx), cfg: await ctx.app.settings.snapshot(), fields }),
        Promise.all(
          rows.map((row) =>
            withProgress && (WAITING_STATUSES.includes(row.status) || awaitsReviewConversion(row))
              ? conversionProgress(ctx.app, row.hash)
              : null,
          ),
        ),
      ]);
      const document = presented.map((doc, i) => (progress[i] ? { ...doc, convert_progress: progress[i] } : doc));
      return { document, total };
    },
  }),

  rpc('GetDocument', {
    http: 'GET /api/v1/document',
    request: GetDocumentRequest,
    response: Document,
    auth: 'public',
    permission: '根据ID查询文档',
    async handler(req, ctx) {
      // The document with its file's other documents, its text and its categories (one query),
      // beside the caller's rights: independent reads, side by side on a PostgreSQL pool.
      const key: { id: number } | { uuid: string } | null =
        req.id > 0 ? { id: req.id } : req.uuid ? { uuid: req.uuid } : null;
      if (!key) throw notFound(NOT_FOUND);
      const [found, viewer] = await Promise.all([
        documentWithFile(ctx.db, key, req.with_all_content ? null : CONTENT_START),
        viewerOf(ctx),
      ]);
      if (!found) throw notFound(NOT_FOUND);
      const { row, sameFile, text, categories } = found;
      // A hidden document's details go to those who may see its pages, no wider (decision 096).
      if (!(await seesDocument(ctx.db, viewer.userId, row))) throw notFound(NOT_FOUND);
      const privileged = viewer.admin || viewer.userId === row.user_id;
      const cfg = await ctx.app.settings.snapshot();
      // The text of the pages this caller may read, decided as their page images are.
      const readable = await readablePages(ctx.db, ctx.app.settings, viewer.userId, sameFile, row.pages || ALL_PAGES);
      const content = readable ? readableText(text, readable.pages, row.pages) : '';
      let description = row.description;
      const writes: Promise<unknown>[] = [];
      if (!description.trim()) {
        description = descriptionFrom(text, freePages(row), row.pages);
        if (description) writes.push(updateDocuments(ctx.db, [row.id], { description }));
      }
      // A reader's visit (the reading page asks for the author) counts once a day per address (decision 119).
      if (req.with_author)
        writes.push(
          ctx.app.viewsSeen.firstToday('document', row.id, ctx.ip).then(async (first) => {
            if (!first) return;
            await Promise.all([
              bumpCounter(ctx.db, row.id, 'view_count', 1).then(() => countSearchView(ctx.app, row)),
              countViewToday(ctx.db, row.id),
            ]);
          }),
        );
      const [[presented], author, progress] = await Promise.all([
        presentDocuments(ctx.db, [row], {
          viewer,
          cfg,
          categories: new Map([[row.id, categories]]),
        }),
        req.with_author ? getUser(ctx.db, row.user_id) : null,
        // In review (6) a document converts too, keeping its status: its progress is theirs as well.
        privileged && (WAITING_STATUSES.includes(row.status) || awaitsReviewConversion(row))
          ? conversionProgress(ctx.app, row.hash)
          : null,
        ...writes,
      ]);
      const shown = hideCounters(
        {
          ...presented,
          // A visitor of a site open to members only reads the title and the metadata alone (decision 097).
          description: cfg.withholdsText(viewer.userId) ? '' : description || row.title,
          view_count: row.view_count + 1,
        },
        cfg,
      );
      return {
        ...shown,
        content,
        user: author ? pick(author, PUBLIC_PROFILE_COLUMNS) : null,
        convert_progress: progress,
        // Ours: how many pages this caller may read, so that the reader need not ask for a page
        // it may be refused (decision 099).
        readable_pages: readable ? Math.min(readable.pages, row.pages) : 0,
      };
    },
  }),

  rpc('FindInDocument', {
    http: 'GET /api/v1/document/find',
    request: FindInDocumentRequest,
    response: FindInDocumentReply,
    auth: 'public',
    async handler(req, ctx) {
      const row = await documentById(ctx.db, req.id);
      if (!row) throw notFound(NOT_FOUND);
      const viewer = await viewerOf(ctx);
      if (!(await seesDocument(ctx.db, viewer.userId, row))) throw notFound(NOT_FOUND);
      // Only the pages this caller may read, decided as their page images are.
      const readable = await readablePagesOf(ctx.db, ctx.app.settings, viewer.userId, row, row.pages || ALL_PAGES);
      const text = await textOf(ctx.db, row.id);
      // A text not split into pages (converted before they were kept apart) names no page to go to.
      if (!readable || text.pages === 0) return { readable: 0 };
      const pages = Math.min(readable.pages, row.pages);
      const { hits, total } = findInPages(readableText(text, pages, row.pages), foldWords(req.wd), FIND_LIMIT);
      return { hit: hits, total, readable: pages };
    },
  }),

  rpc('ListDocumentForHome', {
    http: 'GET /api/v1/document/home',
    request: ListDocumentForHomeRequest,
    response: ListDocumentForHomeResponse,
    auth: 'public',
    async handler(req, ctx) {
      const limit = req.limit >= 1 && req.limit <= 100 ? req.limit : 5;
      const cfg = await ctx.app.settings.snapshot();
      const fields = [...new Set([...HOME_COLUMNS, ...(selectedFields(req.field, DOCUMENT_COLUMNS) ?? [])])].filter(
        (f) => f !== 'description' || !cfg.withholdsText(ctx.user?.id ?? null),
      );
      const sections = [];
      for (const category of await enabledTopCategories(ctx.db, 0)) {
        const rows = await newestConverted(ctx.db, category.id, limit);
        sections.push({
          category_id: category.id,
          category_cover: category.cover,
          category_name: category.title,
          document: rows.map((row) => hideCounters({ ...pick(row, fields), cover: `/view/cover/${row.hash}` }, cfg)),
        });
      }
      return { document: sections };
    },
  }),

  rpc('GetRelatedDocuments', {
    http: 'GET /api/v1/document/related',
    request: Document,
    response: ListDocumentReply,
    auth: 'public',
    async handler(req, ctx) {
      const row = await documentById(ctx.db, req.id);
      if (!row || !isPublic(row)) throw notFound(NOT_FOUND);
      const cfg = await ctx.app.settings.snapshot();
      const days = cfg.int('security', 'document_related_duration');
      if (days <= 0) return {};
      const readable = async (ids: number[]) => {
        const order = new Map(ids.map((id, i) => [id, i]));
        return (await documentsByIds(ctx.db, ids))
          .filter((d) => isPublic(d) && d.status === DocumentStatus.Converted)
          .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      };
      let rows = await readable(await relatedIds(ctx, row, days));
      // Every kept one hidden or gone since: look again rather than show none.
      if (!rows.length) rows = await readable(await relatedIds(ctx, row, days, true));
      return { document: await presentDocuments(ctx.db, rows, { viewer: await viewerOf(ctx), cfg }) };
    },
  }),

  rpc('GetDocumentScore', {
    http: 'GET /api/v1/document/score',
    request: DocumentScore,
    response: DocumentScore,
    auth: 'login',
    async handler(req, ctx) {
      return (await findScore(ctx.db, req.document_id, ctx.requireUser().id)) ?? {};
    },
  }),

  // Ours (decision 078): the upload screen says how many of today's rewards the member has left.
  rpc('GetUploadRewardLeft', {
    http: 'GET /api/v1/document/uploadreward',
    response: UploadRewardLeft,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      const reward = uploadReward(await ctx.app.settings.snapshot());
      return { left: await rewardedUploadsLeft(ctx.db, reward, ctx.requireUser().id, await databaseNow(ctx.db)) };
    },
  }),
];
