import crypto from 'node:crypto';
import type { Database } from '../../db';
import { databaseNow, lockRows } from '../../db/dialect';
import { DocumentStatus } from '../../../shared/constants';
import { badRequest, forbidden, notFound } from '../../wire/errors';
import { checkName, checkText, positiveIds, requireIds } from '../../wire/request';
import type { BackendContext } from '../../platform/context';
import { rpc, type RpcContext } from '../../platform/rpc';
import { documentUploadsOf, linkAttachment } from '../attachment/service';
import { existingCategoryIds, recountCategories } from '../category/service';
import { groupsOfUser } from '../group/service';
import { enabledLanguages } from '../language/service';
import {
  DynamicType,
  addCredit,
  addDynamic,
  deductCredit,
  dynamicCredits,
  dynamicReward,
  dynamicTitle,
} from '../user/service';
import { documentReviewed, tell } from '../message/service';
import { recountListed } from './author-counts';
import { mayUpload } from './access';
import { renderingRoute } from '../../platform/convert/formats';
import { documentHashFor, enqueueConversions } from './conversion';
import { refreshSearchIndex } from './indexing';
import { documentKeywords } from './keywords';
import { rewardedUploadsLeft, uploadReward } from './upload-reward';
import {
  CheckDocumentRequest,
  CreateDocumentRequest,
  DeleteDocumentRequest,
  Document,
  DocumentScore,
  SetDocumentRecommendRequest,
  SetDocumentReconvertRequest,
  SetDocumentsCategoryRequest,
  SetDocumentsLanguageRequest,
} from '../../../shared/messages/document';
import {
  addScore,
  awaitsReviewConversion,
  documentById,
  documentsByIds,
  idsWithStatus,
  insertDocument,
  isPublic,
  ownDocumentOfFile,
  recycleDocuments,
  setCategoryLinks,
  setRecommend,
  setStatus,
  setText,
  updateDocuments,
  type DocumentRow,
} from './store';

// DocumentAPI, what changes documents: creating them from uploads, editing, reviewing,
// recommending, filing, the recycle bin's first step, ratings and reconversion. Every write
// keeps the category counts, the uploaders' document counts and the search index in step.

/** Statuses an admin may set (1 and 3 are the converter's). */
const SETTABLE_STATUSES: readonly number[] = [
  DocumentStatus.Pending,
  DocumentStatus.Converted,
  DocumentStatus.Disabled,
  DocumentStatus.Reconvert,
  DocumentStatus.PendingReview,
  DocumentStatus.ReviewRejected,
];
/** Statuses a reconversion may start from (a disabled or unreviewed document keeps its status). */
const CONVERTIBLE_STATUSES: readonly number[] = [
  DocumentStatus.Pending,
  DocumentStatus.Converting,
  DocumentStatus.Converted,
  DocumentStatus.Failed,
  DocumentStatus.Reconvert,
];
const MAX_PRICE = 1_000_000;

function checkStatus(status: number): number {
  if (!SETTABLE_STATUSES.includes(status))
    throw badRequest('文档状态取值无效（可选 0 待转换、2 已转换、4 已禁用、5 重新转换、6 待审核、7 审核拒绝）');
  return status;
}

function checkPrice(price: number): number {
  if (price < 0 || price > MAX_PRICE) throw badRequest(`文档价格必须在 0 到 ${MAX_PRICE} 之间`);
  return price;
}

async function checkLanguage(db: Database, code: string): Promise<string> {
  const language = code.trim();
  if (language && !(await enabledLanguages(db)).some((l) => l.code === language))
    throw badRequest('文档语言不存在或未启用');
  return language;
}

async function checkCategories(db: Database, ids: readonly number[]): Promise<number[]> {
  const wanted = positiveIds(ids);
  const existing = await existingCategoryIds(db, wanted, 0);
  if (existing.length !== wanted.length) throw badRequest('所选的文档分类不存在');
  return wanted;
}

function checkTexts(doc: { title: string; keywords: string; description: string }) {
  return {
    title: checkName(doc.title, '文档标题', { required: true, max: 255 }),
    keywords: checkText(doc.keywords.replace(/，/g, ', ').trim(), '文档关键字', { max: 255 }),
    description: checkText([...doc.description.trim()].slice(0, 512).join(''), '文档摘要', {
      max: 512,
      multiline: true,
    }),
  };
}

/** A fresh 16-hex-character uuid, the public name of a document (`/document/<uuid>`). */
const newUuid = () => crypto.randomBytes(8).toString('hex');

/**
 * Statuses that send documents to the converter: those now pending (0) or marked for
 * reconversion (5), and those in review without pages (the reviewer reads them converted),
 * are queued, per file, with the caller's transaction.
 */
async function queueWaiting(app: BackendContext, db: Database, ids: readonly number[]): Promise<void> {
  const rows = await documentsByIds(db, ids);
  const files = rows
    .filter(
      (d) => d.status === DocumentStatus.Pending || d.status === DocumentStatus.Reconvert || awaitsReviewConversion(d),
    )
    .map((d) => ({ hash: d.hash, userId: d.user_id }));
  await enqueueConversions(app, files, db);
}

const REVIEW_WAITS: readonly number[] = [DocumentStatus.PendingReview, DocumentStatus.ReviewRejected];

/**
 * The uploaders' messages about a review: approved (out of review into the converter or the library), or rejected
 * (with the reviewer's reason, if any).
 */
function reviewMessages(rows: readonly DocumentRow[], status: number, reviewerId: number, reason: string) {
  const approved = status === DocumentStatus.Converted || status === DocumentStatus.Pending;
  return rows
    .filter((d) => d.user_id !== reviewerId && d.status !== status)
    .filter((d) => (approved ? REVIEW_WAITS.includes(d.status) : status === DocumentStatus.ReviewRejected))
    .map((d) => documentReviewed(d, approved, reason));
}

/**
 * Sets a reviewed status: "converted" only sticks where pages exist, the others go back to the
 * converter. The uploaders hear of an approval or a rejection (not the reviewer's own documents).
 */
async function applyStatus(
  app: BackendContext,
  db: Database,
  rows: readonly DocumentRow[],
  status: number,
  reviewerId: number,
  reason = '',
): Promise<void> {
  // The uploaders' rows before the documents' (their counts change): the order of every transaction.
  await lockRows(
    db,
    'user',
    rows.map((d) => d.user_id),
  );
  await tell(db, reviewMessages(rows, status, reviewerId, reason));
  if (status === DocumentStatus.Converted) {
    await setStatus(
      db,
      rows.filter((d) => d.pages > 0).map((d) => d.id),
      DocumentStatus.Converted,
    );
    await setStatus(
      db,
      rows.filter((d) => d.pages <= 0).map((d) => d.id),
      DocumentStatus.Pending,
    );
  } else {
    await setStatus(
      db,
      rows.map((d) => d.id),
      status,
    );
  }
  await recountListed(
    db,
    rows.map((d) => d.user_id),
  );
  await queueWaiting(
    app,
    db,
    rows.map((d) => d.id),
  );
}

/**
 * Does an owner's edit send their published document back to review? When the words strangers
 * read of it change (title, keywords, description, text) and the owner's groups review
 * documents, as a new upload of theirs would wait: else an approved document could change
 * unseen, as an article cannot either (docs/api.md, UpdateArticle).
 */
async function sendsBackToReview(
  db: Database,
  ownerId: number,
  row: DocumentRow,
  edit: { title: string; keywords: string; description: string; content: string },
): Promise<boolean> {
  if (row.status !== DocumentStatus.Converted) return false;
  const changed =
    edit.content !== '' ||
    edit.title !== row.title ||
    edit.keywords !== row.keywords ||
    edit.description !== row.description;
  return changed && (await initialStatus(db, ownerId)) === DocumentStatus.PendingReview;
}

/** The first status of a new document: no review when one of the uploader's groups skips it. */
async function initialStatus(db: Database, userId: number): Promise<number> {
  const groups = await groupsOfUser(db, userId);
  return groups.some((g) => g.enable_document_review === 0) ? DocumentStatus.Pending : DocumentStatus.PendingReview;
}

/**
 * The reward of each new document (uploadReward: `score.upload_document` credits for today's first
 * `upload_document_limit` documents), 0 past them and for a document that `paid` says is paid
 * nothing (a second document of one file), with the credits' name.
 */
async function uploadRewards(
  ctx: RpcContext,
  db: Database,
  userId: number,
  paid: readonly boolean[],
  at: Date,
): Promise<{ rewards: number[]; creditName: string }> {
  const cfg = await ctx.app.settings.snapshot();
  const reward = uploadReward(cfg);
  let left = await rewardedUploadsLeft(db, reward, userId, at);
  return {
    rewards: paid.map((pays) => (pays && left-- > 0 ? reward.credits : 0)),
    creditName: cfg.creditName(),
  };
}

/**
 * Whether each upload may earn the upload reward: not when the uploader has a document of the same
 * file rendered alike already (ownDocumentOfFile, decision 090), nor for the second of two uploads
 * of one file in one request (decision 109). Read under the uploader's lock.
 */
async function paidUploads(
  db: Database,
  userId: number,
  uploads: readonly { hash: string; ext: string }[],
): Promise<boolean[]> {
  const files = new Set<string>();
  const paid: boolean[] = [];
  for (const upload of uploads) {
    const file = `${upload.hash} ${renderingRoute(upload.ext)}`;
    paid.push(!files.has(file) && !(await ownDocumentOfFile(db, userId, upload.hash, upload.ext)));
    files.add(file);
  }
  return paid;
}

export const writeRpcs = [
  rpc('CreateDocument', {
    http: 'POST /api/v1/document',
    request: CreateDocumentRequest,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (!(await mayUpload(ctx.db, me.id))) throw forbidden('没有权限上传文档');
      // An upload makes one document (its type_id names it): named twice, the request is refused whole.
      const named = new Set<number>();
      for (const { attachment_id: id } of req.document) {
        if (id > 0 && named.has(id)) throw badRequest(`同一个上传文件只能创建一篇文档（attachment_id ${id} 重复）`);
        named.add(id);
      }
      const uploads = new Map(
        (
          await documentUploadsOf(
            ctx.db,
            me.id,
            req.document.map((d) => d.attachment_id),
          )
        )
          .filter((a) => a.type_id === 0)
          .map((a) => [a.id, a]),
      );
      const items = req.document.filter((d) => uploads.has(d.attachment_id));
      if (!items.length) throw badRequest('文档文件参数attachment_id不正确');
      const categoryIds = await checkCategories(ctx.db, req.category_id);
      const prepared: {
        item: (typeof items)[number];
        title: string;
        keywords: string;
        description: string;
        price: number;
        language: string;
      }[] = [];
      for (const item of items) {
        const texts = checkTexts(item);
        prepared.push({
          item,
          ...texts,
          keywords: documentKeywords(texts.keywords, texts.title),
          price: checkPrice(item.price),
          language: await checkLanguage(ctx.db, item.language),
        });
      }
      const status = await initialStatus(ctx.db, me.id);
      const ids = await ctx.db.transaction().execute(async (trx) => {
        // The uploader's row first, as every transaction that changes users and documents locks:
        // nothing taken below (the attachment's row, the new rows' keys) is held while waiting for it.
        await lockRows(trx, 'user', [me.id]);
        // Counted under the lock, before the new rows: two batches at once share the day's rewards, and
        // the second of two batches of one file at once finds the first's document.
        const paid = await paidUploads(
          trx,
          me.id,
          prepared.map((doc) => uploads.get(doc.item.attachment_id)!),
        );
        // The database's clock: the day's rewards are counted, and the new rows stamped, on its day.
        const at = await databaseNow(trx);
        const { rewards, creditName } = await uploadRewards(ctx, trx, me.id, paid, at);
        const created: number[] = [];
        for (const [index, doc] of prepared.entries()) {
          const upload = uploads.get(doc.item.attachment_id)!;
          let row: DocumentRow | undefined;
          // A uuid taken already (one chance in 2^64) inserts nothing: another one is drawn.
          for (let attempt = 0; !row; attempt++) {
            if (attempt > 3) throw new Error('no free document uuid after 4 attempts');
            row = await insertDocument(
              trx,
              {
                title: doc.title,
                keywords: doc.keywords,
                description: doc.description,
                user_id: me.id,
                uuid: newUuid(),
                price: doc.price,
                size: upload.size,
                ext: upload.ext,
                status,
                language: doc.language,
                hash: await documentHashFor(trx, upload.hash, upload.ext),
                attachment_id: upload.id,
                // A copy earns nothing and takes none of the day's rewards (decision 115).
                own_copy: paid[index] ? 0 : 1,
                recommend_at: null,
                deleted_at: null,
              },
              at,
            );
          }
          // Still unused under the uploader's lock: a request with the same upload at once waited here and loses.
          if (!(await linkAttachment(trx, upload.id, row.id))) throw badRequest('文档文件参数attachment_id不正确');
          // The uploader reads the reward where it came from, as a registration's or a check-in's.
          const reward = rewards[index] ?? 0;
          await addDynamic(
            trx,
            me.id,
            DynamicType.Upload,
            `上传了文档《${dynamicTitle(row.title)}》${reward > 0 ? `，${dynamicReward(reward, creditName)}` : ''}`,
          );
          created.push(row.id);
        }
        await setCategoryLinks(trx, created, categoryIds);
        await recountListed(trx, [me.id]);
        const reward = rewards.reduce((sum, credits) => sum + credits, 0);
        if (reward > 0) await addCredit(trx, me.id, reward);
        await queueWaiting(ctx.app, trx, created);
        return created;
      });
      await refreshSearchIndex(ctx.app, ids);
      return {};
    },
  }),

  rpc('UpdateDocument', {
    http: 'PUT /api/v1/document',
    request: Document,
    auth: 'login',
    permission: '更新文档',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const row = await documentById(ctx.db, req.id);
      if (!row) throw notFound('文档不存在');
      if (!ctx.permitted && row.user_id !== me.id) throw forbidden('文档不存在或没有权限');
      const texts = checkTexts(req);
      const columns = {
        ...texts,
        keywords: documentKeywords(texts.keywords, texts.title),
        price: checkPrice(req.price),
        language: await checkLanguage(ctx.db, req.language),
      };
      const categoryIds = await checkCategories(ctx.db, req.category_id);
      const content = req.content.trim() ? checkText(req.content, '文档内容', { max: 5_000_000, multiline: true }) : '';
      const status =
        ctx.permitted && req.status !== row.status
          ? checkStatus(req.status)
          : !ctx.permitted && (await sendsBackToReview(ctx.db, me.id, row, { ...columns, content }))
            ? DocumentStatus.PendingReview
            : null;
      await ctx.db.transaction().execute(async (trx) => {
        // The owner's row before the document's, as applyStatus and every other transaction lock.
        if (status !== null) await lockRows(trx, 'user', [row.user_id]);
        await updateDocuments(trx, [row.id], columns);
        await setCategoryLinks(trx, [row.id], categoryIds);
        // Not split into pages: it goes only to readers of every page (page-text.ts).
        if (content) await setText(trx, [row.id], { content, pages: 0 });
        if (status !== null) await applyStatus(ctx.app, trx, [row], status, me.id);
        await recountCategories(trx, 0);
      });
      await refreshSearchIndex(ctx.app, [row.id]);
      return {};
    },
  }),

  rpc('DeleteDocument', {
    http: 'DELETE /api/v1/document',
    request: DeleteDocumentRequest,
    auth: 'login',
    permission: '删除文档',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const rows = await documentsByIds(ctx.db, requireIds(req.id, '文档'));
      // Unlike MOREDOC, a member deletes only their own documents among those asked for.
      const targets = ctx.permitted ? rows : rows.filter((d) => d.user_id === me.id);
      if (!targets.length) throw forbidden('文档不存在或没有删除权限');
      const cfg = await ctx.app.settings.snapshot();
      const penalty = cfg.int('score', 'delete_document');
      const deleted = await ctx.db.transaction().execute(async (trx) => {
        // The owners first (their credits and counters change), as every transaction locks users before documents.
        await lockRows(
          trx,
          'user',
          targets.map((d) => d.user_id),
        );
        const ids = new Set(
          await recycleDocuments(
            trx,
            targets.map((d) => d.id),
            me.id,
          ),
        );
        const gone = targets.filter((d) => ids.has(d.id));
        const credits = cfg.creditName();
        for (const doc of gone) {
          const taken = penalty > 0 ? await deductCredit(trx, doc.user_id, penalty) : 0;
          // The owner's 最近动态 is their credit history: it says what a delete took, theirs or an admin's.
          const title = dynamicTitle(doc.title);
          const cost = taken > 0 ? `，扣除 ${dynamicCredits(taken, credits)}` : '';
          if (doc.user_id === me.id)
            await addDynamic(trx, me.id, DynamicType.DeleteDocument, `删除了文档《${title}》${cost}`);
          else if (taken > 0)
            await addDynamic(trx, doc.user_id, DynamicType.DeleteDocument, `文档《${title}》被管理员删除${cost}`);
        }
        await recountListed(
          trx,
          gone.map((d) => d.user_id),
        );
        return [...ids];
      });
      await refreshSearchIndex(ctx.app, deleted);
      return {};
    },
  }),

  rpc('CheckDocument', {
    http: 'PUT /api/v1/document/check',
    request: CheckDocumentRequest,
    auth: 'perm',
    permission: '文档审核',
    async handler(req, ctx) {
      const ids = positiveIds(req.id);
      if (!ids.length) throw badRequest('文档ID不能为空');
      const status = checkStatus(req.status);
      const reason = checkText(req.reason.trim(), '拒绝原因', { max: 255, multiline: true });
      const rows = await documentsByIds(ctx.db, ids);
      await ctx.db
        .transaction()
        .execute((trx) =>
          applyStatus(
            ctx.app,
            trx,
            rows,
            status,
            ctx.requireUser().id,
            status === DocumentStatus.ReviewRejected ? reason : '',
          ),
        );
      await refreshSearchIndex(
        ctx.app,
        rows.map((d) => d.id),
      );
      return {};
    },
  }),

  rpc('SetDocumentRecommend', {
    http: 'PUT /api/v1/document/recommend',
    request: SetDocumentRecommendRequest,
    auth: 'perm',
    permission: '推荐文档',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '文档');
      if (req.type !== 0 && req.type !== 1 && req.type !== 2)
        throw badRequest('推荐类型必须是 0（取消推荐）、1（推荐）或 2（重新推荐）');
      await setRecommend(ctx.db, ids, req.type);
      return {};
    },
  }),

  rpc('SetDocumentsCategory', {
    http: 'PUT /api/v1/document/category',
    request: SetDocumentsCategoryRequest,
    auth: 'perm',
    permission: '批量修改文档分类',
    async handler(req, ctx) {
      const ids = positiveIds(req.document_id);
      if (!ids.length || !positiveIds(req.category_id).length) throw badRequest('文档ID和分类ID均不能为空');
      const categoryIds = await checkCategories(ctx.db, req.category_id);
      await ctx.db.transaction().execute(async (trx) => {
        await setCategoryLinks(trx, ids, categoryIds);
        await recountCategories(trx, 0);
      });
      await refreshSearchIndex(ctx.app, ids);
      return {};
    },
  }),

  rpc('SetDocumentsLanguage', {
    http: 'PUT /api/v1/document/language',
    request: SetDocumentsLanguageRequest,
    auth: 'perm',
    permission: '批量设置文档语言',
    async handler(req, ctx) {
      const ids = positiveIds(req.document_id);
      if (!ids.length) throw badRequest('文档ID不能为空');
      await updateDocuments(ctx.db, ids, { language: await checkLanguage(ctx.db, req.language) });
      await refreshSearchIndex(ctx.app, ids);
      return {};
    },
  }),

  rpc('SetDocumentReconvert', {
    http: 'PUT /api/v1/document/reconvert',
    request: SetDocumentReconvertRequest,
    auth: 'perm',
    permission: '一键重转失败文档',
    async handler(req, ctx) {
      const ids = positiveIds(req.id);
      const changed = await ctx.db.transaction().execute(async (trx) => {
        // Without ids, MOREDOC's button: every failed document goes back to the converter.
        const rows = ids.length
          ? await setStatus(trx, ids, DocumentStatus.Reconvert, CONVERTIBLE_STATUSES)
          : await setStatus(trx, await idsWithStatus(trx, DocumentStatus.Failed), DocumentStatus.Pending, [
              DocumentStatus.Failed,
            ]);
        await queueWaiting(ctx.app, trx, rows);
        await recountListed(
          trx,
          (await documentsByIds(trx, rows)).map((d) => d.user_id),
        );
        return rows;
      });
      // A failed document was out of the search index; on its way again, it is found again.
      await refreshSearchIndex(ctx.app, changed);
      return {};
    },
  }),

  rpc('SetDocumentScore', {
    http: 'POST /api/v1/document/score',
    request: DocumentScore,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const row = await documentById(ctx.db, req.document_id);
      if (!row || !isPublic(row)) throw notFound('文档不存在');
      if (req.score < 100 || req.score > 500) throw badRequest('评分必须在 100 到 500 之间（1 到 5 星）');
      if (!(await ctx.db.transaction().execute((trx) => addScore(trx, row.id, me.id, req.score))))
        throw forbidden('您已经评分过了');
      await refreshSearchIndex(ctx.app, [row.id]);
      return {};
    },
  }),
];
