// Where a document lives on the site and where its images come from (docs/moredoc.md §9):
// the reader's path, the cover, and how many pages are free (the page images: shared/page-image.ts).
import type { Document } from '../../../../shared/types/document';

/**
 * Category of the reader's path when a record does not say (downloads, favourites): the
 * reader puts the document's own category into the address once it has loaded.
 */
const UNKNOWN_CATEGORY = 1;

/** The deepest category of a document: the last of `category` (root first), else of `category_id`. */
export function deepestCategory(doc: Pick<Document, 'category' | 'category_id'>): number | undefined {
  const trail = doc.category ?? [];
  return trail[trail.length - 1]?.id ?? doc.category_id?.[doc.category_id.length - 1];
}

/** The document's page: `/library/{category}/{id}` under its deepest category. */
export function documentPath(
  doc: Pick<Document, 'id' | 'category' | 'category_id'>,
  fallbackCategory?: number,
): string | undefined {
  const category = deepestCategory(doc) ?? fallbackCategory;
  return doc.id && category ? `/library/${category}/${doc.id}` : undefined;
}

/** The reader of document `id` when only its id is known (download and favourite records). */
export const documentPathById = (id: number) => `/library/${UNKNOWN_CATEGORY}/${id}`;

/** The cover: what the home listing gives, else the one of the document's hash. */
export function coverUrl(doc: Pick<Document, 'cover' | 'attachment'>): string | undefined {
  if (doc.cover) return doc.cover;
  return doc.attachment?.hash ? `/view/cover/${doc.attachment.hash}` : undefined;
}

/** Pages anyone may read: `preview` when it limits them (0 = all pages, docs/moredoc.md §12). */
export function freePages(doc: Pick<Document, 'pages' | 'preview'>): number {
  const pages = doc.pages ?? 0;
  const preview = doc.preview ?? 0;
  return preview > 0 && preview < pages ? preview : pages;
}

/** The CSS aspect-ratio of the pages (`width / height` of the first page); A4 portrait when unknown. */
export function pageAspectRatio(doc: Pick<Document, 'width' | 'height'>): string {
  return doc.width && doc.height ? `${doc.width} / ${doc.height}` : A4_PORTRAIT;
}

export const A4_PORTRAIT = '210 / 297';
