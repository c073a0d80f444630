import type { Database } from '../../db';
import { isAdmin } from '../../platform/auth/session';
import type { ConfigStore } from '../../platform/config-store';
import { groupAllows } from '../group/service';
import { PunishmentType, isBarred } from '../punishment/service';
import { readerBenefits } from './reader-benefits';
import { documentsByHash, hasPaidDownload, isPublic, type DocumentRow } from './store';

// Who may see what of a document. Unlike MOREDOC, pages and covers are not public files: a
// document strangers may not see (recycled, disabled, pending or rejected review) shows its
// pages only to its owner and the admins, and pages past the free preview only to the owner,
// the admins, VIP members whose benefits include reading, and buyers of the document. The
// text of a document follows the same decision (readablePages): nobody is given the text of a
// page whose image they may not see.

/** The answer for one page or cover; `cache` says whether any visitor would get the same answer. */
export type PageDecision =
  { access: 'ok'; cache: 'public' | 'private' } | { access: 'not-found' } | { access: 'forbidden' };

/** A page number (1-based), or the cover (the first page's picture). */
export type PageRef = number | 'cover';

/** "Every page", whatever the count. */
export const ALL_PAGES = Number.MAX_SAFE_INTEGER;

/** The pages a stranger may read of a document: `preview`, or all of them when it is 0. */
export function freePages(doc: Pick<DocumentRow, 'preview' | 'pages'>): number {
  if (doc.preview > 0) return doc.preview;
  return doc.pages > 0 ? doc.pages : ALL_PAGES;
}

/** Does the viewer own the document or administer the site? */
export async function isOwnerOrAdmin(
  db: Database,
  userId: number | null,
  doc: Pick<DocumentRow, 'user_id'>,
): Promise<boolean> {
  if (userId === null) return false;
  return doc.user_id === userId || isAdmin(db, userId);
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
 * caller needs at most; the VIP and purchase lookups are skipped when the free pages reach it.
 * `admin`: whether `userId` administers the site, when the caller knows it already.
 */
export async function readablePages(
  db: Database,
  settings: ConfigStore,
  userId: number | null,
  documents: readonly DocumentRow[],
  wanted = ALL_PAGES,
  admin?: boolean,
): Promise<Readable | null> {
  if (!documents.length) return null;
  const visible = documents.filter(isPublic);
  const privileged =
    userId !== null && (documents.some((d) => d.user_id === userId) || (admin ?? (await isAdmin(db, userId))));
  if (!visible.length) return privileged ? { pages: ALL_PAGES, free: 0 } : null;
  const free = Math.max(...visible.map(freePages));
  if (wanted <= free || privileged) return { pages: privileged ? ALL_PAGES : free, free };
  if (userId === null) return { pages: free, free };
  const entitled =
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
