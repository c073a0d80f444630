// The URL of a document's page image, for the reader, the gateway's preload of the first page
// and the early script (web/src/early.ts), which is bundled before the app's code: this module
// imports nothing, so that script stays a few hundred bytes.

interface PageImageSource {
  attachment?: { hash?: string };
  preview_ext?: string;
  enable_gzip?: boolean;
}

/**
 * Page `page` (1-based) as an image: `/view/page/<hash>/<n><ext>`, `.gzip.svg` for SVG pages
 * stored compressed. Undefined before the document has pages (no attachment hash).
 */
export function pageImagePath(doc: PageImageSource, page: number): string | undefined {
  const hash = doc.attachment?.hash;
  if (!hash) return undefined;
  const ext = doc.preview_ext || '.svg';
  return `/view/page/${hash}/${page}${ext === '.svg' && doc.enable_gzip ? '.gzip.svg' : ext}`;
}

/** A converted document's first page image, as the reader shows it; undefined for any other status. */
export function firstPageImagePath(doc: PageImageSource & { status?: number }): string | undefined {
  // 2: DocumentStatus.Converted (shared/constants.ts, not imported: see above).
  return doc.status === 2 ? pageImagePath(doc, 1) : undefined;
}
