import { addressKey } from '../../../shared/address-key';
import { DocumentStatus } from '../../../shared/constants';
import type { Database } from '../../db';
import { databaseNow, lockKeys, lockRows } from '../../db/dialect';
import { startOfServerDay } from '../../db/schema';
import type { SessionUser } from '../../platform/auth/session';
import type { ConfigSnapshot } from '../../platform/config-store';
import { ApiError, Code, forbidden, notFound, unauthenticated } from '../../wire/errors';
import { IdRequest, PageRequest } from '../../../shared/messages/common';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import {
  MEMBERS_ONLY,
  bumpCounter,
  documentById,
  documentsByIds,
  fileHashOf,
  listedDocumentFields,
  isPublic,
  membersOnly,
  originalKey,
  type DocumentRow,
} from '../document/service';
import { PunishmentType, isBarred } from '../punishment/service';
import { DynamicType, addCredit, addDynamic, dynamicCredits, dynamicTitle, spendCredits } from '../user/service';
import { serveDownload } from './file-route';
import { downloadUrl } from './link';
import {
  DocumentPurchase,
  DownloadDocumentReply,
  DownloadDocumentRequest,
  ListUserDownloadReply,
  type DownloadReason,
} from '../../../shared/messages/download';
import { countIpDownloadsSince, countUserDownloadsSince, hasPaidFor, insertDownload, listUserDownloads } from './store';
import { downloadBenefits, type DownloadBenefits } from './vip';

// Downloads (docs/architecture.md, "Documents"). MOREDOC checks the buyer's credits before asking whether the
// download is free for them at all, and moves credits with no balance guard. Here "free for
// this user?" comes first (owner, free document, bought within download.free_download_duration
// days, VIP), then the punishments and the daily limits per IP and per user, then one
// transaction that re-counts, records the download and moves the price with a conditional
// UPDATE that can never leave a balance below zero. Downloads from one address, and those of
// one member, take turns in that transaction (on PostgreSQL, across processes too: locks).

const DAY_MS = 24 * 60 * 60 * 1000;
const MISSING = '文档不存在';
const NO_VIP: DownloadBenefits = { active: false, freeDownload: false, dailyDownloadQuota: 0 };

type FreeReason = Exclude<DownloadReason, 'paid' | 'review'> | null;

/**
 * The document a download asks for, or a 404: not purged, not recycled, not disabled; pending and rejected ones only
 * for their owner.
 */
async function downloadableDocument(ctx: RpcContext, id: number): Promise<DocumentRow & { hash: string }> {
  const doc = id > 0 ? await documentById(ctx.db, id) : undefined;
  if (!doc || doc.deleted_at !== null || doc.status === DocumentStatus.Disabled) throw notFound(MISSING);
  if (!isPublic(doc) && doc.user_id !== ctx.user?.id) throw notFound(MISSING);
  await assertOriginalStored(ctx, doc);
  return doc;
}

async function assertOriginalStored(ctx: RpcContext, doc: DocumentRow): Promise<void> {
  if (!doc.hash || !(await ctx.app.blobs.exists(originalKey(await fileHashOf(ctx.db, [doc]), doc.ext))))
    throw notFound('文档文件不存在，请联系管理员');
}

const fileNameOf = (doc: DocumentRow) => `${doc.title}${doc.ext}`;

/**
 * What the rules are read from, gathered before the transaction: inside it only the
 * transaction's own queries may run (SQLite serves one connection; another query would wait
 * for the transaction to end).
 */
interface DownloadRules {
  me: SessionUser | null;
  ip: string;
  /** CLIENT_IPV6_PREFIX: the per-address limit counts an IPv6 client by its prefix of so many bits. */
  ipv6Prefix: number;
  cfg: ConfigSnapshot;
  vip: DownloadBenefits;
  /**
   * The database's now, which the day of the daily limits and the purchase's free period count
   * from: every machine starts the day at the same moment, whatever its own clock says. Read
   * again inside the transaction, for the check there and the row's time.
   */
  at: Date;
}

async function rulesFor(ctx: RpcContext): Promise<DownloadRules> {
  const me = ctx.user;
  return {
    me,
    ip: ctx.ip,
    ipv6Prefix: ctx.app.ipv6Prefix,
    cfg: await ctx.app.settings.snapshot(),
    vip: me ? await downloadBenefits(ctx.app, me.id) : NO_VIP,
    at: await databaseNow(ctx.db),
  };
}

/** Why this caller pays nothing for this document, or null when they pay its price. */
async function freeReason(db: Database, doc: DocumentRow, { me, cfg, vip, at }: DownloadRules): Promise<FreeReason> {
  if (me && doc.user_id === me.id) return 'owner';
  if (doc.price <= 0) return 'free';
  if (!me) return null;
  if (await hasBought(db, doc, { me, cfg, at })) return 'bought';
  return vip.active && vip.freeDownload ? 'vip' : null;
}

/** Whether the caller paid for the document within `download.free_download_duration` days. */
async function hasBought(
  db: Database,
  doc: DocumentRow,
  { me, cfg, at }: Pick<DownloadRules, 'me' | 'cfg' | 'at'>,
): Promise<boolean> {
  if (!me) return false;
  // A duration of 0 or less: any earlier purchase makes it free again (contract).
  const days = cfg.int('download', 'free_download_duration');
  const since = days > 0 ? new Date(at.getTime() - days * DAY_MS).toISOString() : null;
  return hasPaidFor(db, me.id, doc.id, since);
}

/** The daily limits (403 in Chinese): per IP, then per user — a VIP's own quota replaces the member limit. */
async function assertWithinLimits(db: Database, { me, ip, ipv6Prefix, cfg, vip, at }: DownloadRules): Promise<void> {
  const today = startOfServerDay(at);
  const perIp = cfg.int('download', 'times_every_ip');
  if ((await countIpDownloadsSince(db, { ip, ipv6Prefix }, today)) >= perIp)
    throw forbidden(`当前 IP 今日下载次数已达上限（${Math.max(perIp, 0)} 次），请明天再来`);
  const perUser =
    vip.active && vip.dailyDownloadQuota > 0 ? vip.dailyDownloadQuota : cfg.int('download', 'times_every_day');
  // Guests have no count of their own: a limit of 0 blocks them too (contract).
  const used = me ? await countUserDownloadsSince(db, me.id, today) : 0;
  if (used >= perUser) throw forbidden(`您今日的下载次数已达上限（${Math.max(perUser, 0)} 次），请明天再来`);
}

/** The search index sorts by downloads too: it gets the new count (derived data, so a failure is only logged). */
async function syncDownloadCount(ctx: RpcContext, documentId: number): Promise<void> {
  try {
    const fresh = await documentById(ctx.db, documentId);
    if (fresh) await ctx.app.search.document.updateAttributes(documentId, { downloadCount: fresh.download_count });
  } catch (error) {
    ctx.request.log.error(
      { err: error, document: documentId },
      'updating the download count in the search index failed',
    );
  }
}

export const downloadService = defineService(
  'DocumentAPI',
  [
    rpc('DownloadDocument', {
      http: 'GET /api/v1/document/download',
      request: DownloadDocumentRequest,
      response: DownloadDocumentReply,
      auth: 'public',
      async handler(req, ctx) {
        const rules = await rulesFor(ctx);
        const { me, cfg } = rules;
        if (!me && membersOnly(cfg)) throw unauthenticated(MEMBERS_ONLY);
        if (!me && !cfg.bool('download', 'enable_guest_download')) throw unauthenticated();
        const doc = await downloadableDocument(ctx, req.id);
        const free = await freeReason(ctx.db, doc, rules);
        if (me && (await isBarred(ctx.db, me.id, PunishmentType.NoDownload)))
          throw forbidden('您的账户已被禁止下载文档');
        if (!me && free === null) throw forbidden('付费文档，请先登录再下载');
        await assertWithinLimits(ctx.db, rules);
        await ctx.db.transaction().execute(async (trx) => {
          // Decided again inside the transaction, where concurrent downloads are serialised: a
          // second click that lost the race finds the first one's purchase and pays nothing.
          // The buyer's and the uploader's rows are locked together (in id order), before the
          // credits move between them.
          await lockKeys(trx, [`download:ip:${addressKey(ctx.ip, ctx.app.ipv6Prefix)}`]);
          await lockRows(trx, 'user', [me?.id ?? 0, doc.user_id]);
          const inside = { ...rules, at: await databaseNow(trx) };
          await assertWithinLimits(trx, inside);
          // The row keeps why the download cost what it did (我的下载 says it: VIP 免费, 已购买, …).
          const reason = (await freeReason(trx, doc, inside)) ?? 'paid';
          const paid = me !== null && reason === 'paid' && doc.price > 0;
          // More than the reader agreed to (a price raised since their page was loaded, a VIP period or a
          // purchase that ended meanwhile): they are told the price, nothing is taken.
          if (req.check_price && paid && doc.price > req.price)
            throw new ApiError(
              Code.FailedPrecondition,
              `该文档的下载价格现为 ${doc.price} ${cfg.creditName()}，请确认后再下载`,
            );
          if (me && reason === 'paid') {
            if (!(await spendCredits(trx, me.id, doc.price))) throw forbidden(`${cfg.creditName()}不足，无法下载`);
            await addCredit(trx, doc.user_id, doc.price);
          }
          await insertDownload(
            trx,
            {
              userId: me?.id ?? 0,
              documentId: doc.id,
              ip: ctx.ip,
              reason,
              price: doc.price,
            },
            inside.at,
          );
          await bumpCounter(trx, doc.id, 'download_count', 1);
          // Both sides read what the credits did: the buyer what it cost, the uploader what it earned.
          const title = dynamicTitle(doc.title);
          const credits = dynamicCredits(doc.price, cfg.creditName());
          if (me)
            await addDynamic(
              trx,
              me.id,
              DynamicType.Download,
              paid ? `下载了文档《${title}》，花费 ${credits}` : `下载了文档《${title}》`,
            );
          if (paid)
            await addDynamic(
              trx,
              doc.user_id,
              DynamicType.DocumentDownloaded,
              `文档《${title}》被下载，获得 ${credits}`,
            );
        });
        await syncDownloadCount(ctx, doc.id);
        return {
          url: await downloadUrl(ctx.app, { userId: me?.id ?? 0, hash: doc.hash, documentId: doc.id }, fileNameOf(doc)),
        };
      },
    }),

    rpc('GetDocumentPurchase', {
      http: 'GET /api/v1/document/purchase',
      request: IdRequest('Document'),
      response: DocumentPurchase,
      auth: 'login',
      async handler(req, ctx) {
        const rules = await rulesFor(ctx);
        const doc = req.id > 0 ? await documentById(ctx.db, req.id) : undefined;
        if (!doc || doc.deleted_at !== null || (!isPublic(doc) && doc.user_id !== rules.me?.id))
          throw notFound(MISSING);
        // Said only of a paid document the caller does not own: the button then reads 已购买.
        const bought = doc.price > 0 && doc.user_id !== rules.me?.id && (await hasBought(ctx.db, doc, rules));
        return { bought };
      },
    }),

    rpc('DownloadDocumentToBeReviewed', {
      http: 'GET /api/v1/document/download/bereviewed',
      request: IdRequest('Document'),
      response: DownloadDocumentReply,
      auth: 'perm',
      permission: '下载待审核文档',
      async handler(req, ctx) {
        const me = ctx.requireUser();
        const doc = req.id > 0 ? await documentById(ctx.db, req.id) : undefined;
        const reviewable: readonly number[] = [
          DocumentStatus.Disabled,
          DocumentStatus.PendingReview,
          DocumentStatus.ReviewRejected,
        ];
        if (!doc || doc.deleted_at !== null || !reviewable.includes(doc.status)) throw notFound(MISSING);
        await assertOriginalStored(ctx, doc);
        await insertDownload(
          ctx.db,
          { userId: me.id, documentId: doc.id, ip: ctx.ip, reason: 'review', price: doc.price },
          await databaseNow(ctx.db),
        );
        return {
          url: await downloadUrl(ctx.app, { userId: me.id, hash: doc.hash, documentId: doc.id }, fileNameOf(doc)),
        };
      },
    }),
  ],
  { routes: serveDownload },
);

export const userDownloadService = defineService('UserAPI', [
  rpc('ListUserDownload', {
    http: 'GET /api/v1/user/download',
    request: PageRequest('ListUserDownloadRequest'),
    response: ListUserDownloadReply,
    auth: 'login',
    async handler(req, ctx) {
      const { rows, total } = await listUserDownloads(ctx.db, ctx.requireUser().id, req.page, req.size);
      const documents = new Map(
        (
          await documentsByIds(
            ctx.db,
            rows.map((r) => r.document_id),
          )
        ).map((d) => [d.id, d]),
      );
      const download = rows.map((r) => {
        const doc = documents.get(r.document_id);
        return doc ? { ...r, ...listedDocumentFields(doc) } : r;
      });
      return { download, total };
    },
  }),
]);
