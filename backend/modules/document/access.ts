import type { Database } from '../../db';
import { hasPermission } from '../../platform/auth/session';
import { grpcPermissionPath } from '../../../shared/permissions';
import type { ConfigSnapshot, ConfigStore } from '../../platform/config-store';
import { groupAllows } from '../group/service';
import { PunishmentType, isBarred } from '../punishment/service';
import { readerBenefits } from './reader-benefits';
import { documentsByHash, hasPaidDownload, isPublic, type DocumentRow } from './store';

// Who may see what of a document. Unlike MOREDOC, pages and covers are not public files: a
// document strangers may not see (recycled, disabled, pending or rejected review) shows its
// pages only to its owner and the document admins, and pages past the free preview only to the
// owner, the document admins, VIP members whose benefits include reading, and buyers of the
// document. A document admin holds 更新文档 or 文档审核 (decision 096): holding some other
// permission (a 客服 answering feedback) reads no more than a member does. The
// text of a document follows the same decision (readablePages): nobody is given the text of a
// page whose image they may not see.

/**
 * The answer for one page or cover; `cache` says whether any visitor would get the same answer;
 * `login`: a visitor of a site open to members only.
 */
export type PageDecision =
  | { access: 'ok'; cache: 'public' | 'private' }
  | { access: 'not-found' }
  | { access: 'forbidden' }
  | { access: 'login' };

/** The 401 of a visitor asking for a document's pages or download on a site open to members only. */
export const MEMBERS_ONLY = '本站需登录后才能访问，请登录后阅读或下载';

/**
 * Is the site open to members only (是否登录才能访问)? Then a visitor gets none of its documents'
 * pages, text or downloads, through the API as through the pages (decision 097).
 */
export const membersOnly = (cfg: ConfigSnapshot): boolean => cfg.membersOnly();

/** A page number (1-based), or the cover (the first page's picture). */
export type PageRef = number | 'cover';

/** "Every page", whatever the count. */
export const ALL_PAGES = Number.MAX_SAFE_INTEGER;

/** The pages a stranger may read of a document: `preview`, or all of them when it is 0. */
export function freePages(doc: Pick<DocumentRow, 'preview' | 'pages'>): number {
  if (doc.preview > 0) return doc.preview;
  return doc.pages > 0 ? doc.pages : ALL_PAGES;
}

/** The permission rows that make their holder a reader of every document, whole (decision 096). */
const WHOLE_READER_PATHS = [
  grpcPermissionPath('DocumentAPI', 'UpdateDocument'),
  grpcPermissionPath('DocumentAPI', 'CheckDocument'),
];

/** May `userId` read every page of every document, as one who edits or reviews documents (decision 096)? */
export function readsWholeDocuments(db: Database, userId: number): Promise<boolean> {
  return hasPermission(db, userId, 'GRPC', WHOLE_READER_PATHS);
}

/**
 * May `userId` (null: a visitor) see `doc` at all, its details as its pages? A public one,
 * anybody; a hidden one (recycled, disabled, pending or rejected review), its owner and the
 * document admins only (decision 096), as readablePages decides for its pages.
 */
export async function seesDocument(
  db: Database,
  userId: number | null,
  doc: Pick<DocumentRow, 'user_id' | 'status' | 'deleted_at'>,
): Promise<boolean> {
  if (isPublic(doc)) return true;
  return userId !== null && (doc.user_id === userId || (await readsWholeDocuments(db, userId)));
}

/** What a viewer may read of the documents made from one file: `pages` of them, the first `free` by anybody. */
export interface Readable {
  pages: number;
  free: number;
}

/**
 * How many pages of `documents` (every document made from one file: they share its pages, so
 * the most generous of them decides) may `userId` (null: a visitor) read? Null when the viewer
 * may not see them at all. The one decision behind the page images (pageAccess) and every text
 * of a document that leaves the backend (GetDocument's content). `wanted`: how many pages the
 * caller needs at most; the rights lookups are skipped when the free pages reach it.
 */
export async function readablePages(
  db: Database,
  settings: ConfigStore,
  userId: number | null,
  documents: readonly DocumentRow[],
  wanted = ALL_PAGES,
): Promise<Readable | null> {
  if (!documents.length) return null;
  if (userId === null && membersOnly(await settings.snapshot())) return { pages: 0, free: 0 };
  const visible = documents.filter(isPublic);
  const privileged = async () =>
    userId !== null && (documents.some((d) => d.user_id === userId) || (await readsWholeDocuments(db, userId)));
  if (!visible.length) return (await privileged()) ? { pages: ALL_PAGES, free: 0 } : null;
  const free = Math.max(...visible.map(freePages));
  if (wanted <= free || userId === null) return { pages: free, free };
  const entitled =
    (await privileged()) ||
    (await readerBenefits(db, settings, userId)).readAllPages ||
    (await hasPaidDownload(
      db,
      userId,
      visible.map((d) => d.id),
    ));
  return { pages: entitled ? ALL_PAGES : free, free };
}

/** readablePages for one document, with the other documents made from its file. */
export async function readablePagesOf(
  db: Database,
  settings: ConfigStore,
  userId: number | null,
  doc: DocumentRow,
  wanted = ALL_PAGES,
): Promise<Readable | null> {
  return readablePages(db, settings, userId, doc.hash ? await documentsByHash(db, doc.hash) : [doc], wanted);
}

/**
 * May `userId` (null: a visitor) see `page` of the documents made from the file `hash`?
 * (readablePages decides.) The gateway may ask the same question in-process before serving
 * from the store.
 */
export async function pageAccess(
  db: Database,
  settings: ConfigStore,
  userId: number | null,
  hash: string,
  page: PageRef,
): Promise<PageDecision> {
  if (userId === null && membersOnly(await settings.snapshot())) return { access: 'login' };
  const wanted = page === 'cover' ? 1 : page;
  const readable = await readablePages(db, settings, userId, await documentsByHash(db, hash), wanted);
  if (!readable) return { access: 'not-found' };
  if (wanted <= readable.free) return { access: 'ok', cache: 'public' };
  return wanted <= readable.pages ? { access: 'ok', cache: 'private' } : { access: 'forbidden' };
}

/** The upload right (docs/moredoc.md §8): a group with `enable_upload`, and no punishment barring uploads. */
export async function mayUpload(db: Database, userId: number): Promise<boolean> {
  return !(await isBarred(db, userId, PunishmentType.NoUpload)) && (await groupAllows(db, userId, 'enable_upload'));
}
