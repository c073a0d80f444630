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
// the admins, VIP members whose benefits include reading, and buyers of the document.

/** The answer for one page or cover; `cache` says whether any visitor would get the same answer. */
export type PageDecision = { access: 'ok'; cache: 'public' | 'private' } | { access: 'not-found' } | { access: 'forbidden' };

/** A page number (1-based), or the cover (the first page's picture). */
export type PageRef = number | 'cover';

/** The pages a stranger may read of a document: `preview`, or all of them when it is 0. */
export function freePages(doc: Pick<DocumentRow, 'preview' | 'pages'>): number {
  if (doc.preview > 0) return doc.preview;
  return doc.pages > 0 ? doc.pages : Number.MAX_SAFE_INTEGER;
}

/** Does the viewer own the document or administer the site? */
export async function isOwnerOrAdmin(db: Database, userId: number | null, doc: Pick<DocumentRow, 'user_id'>): Promise<boolean> {
  if (userId === null) return false;
  return doc.user_id === userId || isAdmin(db, userId);
}

/**
 * May `userId` (null: a visitor) see `page` of the documents made from the file `hash`? The
 * files are shared by every document with the same content, so the most generous of them
 * decides. The gateway may ask the same question in-process before serving from the store.
 */
export async function pageAccess(db: Database, settings: ConfigStore, userId: number | null, hash: string, page: PageRef): Promise<PageDecision> {
  const documents = await documentsByHash(db, hash);
  if (!documents.length) return { access: 'not-found' };
  const visible = documents.filter(isPublic);
  const privileged = userId !== null && (documents.some((d) => d.user_id === userId) || (await isAdmin(db, userId)));
  if (!visible.length) return privileged ? { access: 'ok', cache: 'private' } : { access: 'not-found' };
  if (page === 'cover' || page <= Math.max(...visible.map(freePages))) return { access: 'ok', cache: 'public' };
  if (privileged) return { access: 'ok', cache: 'private' };
  if (userId === null) return { access: 'forbidden' };
  const entitled = (await readerBenefits(db, settings, userId)).readAllPages || (await hasPaidDownload(db, userId, visible.map((d) => d.id)));
  return entitled ? { access: 'ok', cache: 'private' } : { access: 'forbidden' };
}

/** The upload right (contract README §8.1): a group with `enable_upload`, and no punishment barring uploads. */
export async function mayUpload(db: Database, userId: number): Promise<boolean> {
  return !(await isBarred(db, userId, PunishmentType.NoUpload)) && (await groupAllows(db, userId, 'enable_upload'));
}
