import type { BackendContext } from '../../platform/context';
import { jobKind, type JobContext } from '../../platform/jobs/job-queue';
import { conversionPending, pageFormat } from './conversion';
import { outputKey } from './files';
import { deleteUnnamedFiles, readBlob, readManifest, writeManifest, type Manifest } from './manifest';
import { documentsByHash, updateDocuments } from './store';

// A conversion leaves the images of a page as the PDF stores them, so that the document reads
// as soon as it ends, at about the speed of mutool copying them into its SVG: a scanned page (one
// JPEG over the whole page) is that JPEG (`<n>.jpg`), and a vector page with photos is the plain
// SVG MuPDF drew, the JPEGs at full resolution inside (`<n>.svg`). This job then brings them to
// reading resolution (150 dpi) on the conversion threads: a scan page becomes the WebP it is
// worth (about a seventh of a 200 dpi scan's JPEG), a page with photos the gzip SVG with WebP
// photos (about a third of the plain SVG); the files they replace are deleted. bench/README.md,
// "Conversion", has the figures. Until then, and for a scan whose WebP would not be smaller, the
// page is served as it is (page-routes.ts serves whatever a page is stored as).

export const pageImagesKind = jobKind<{ hash: string }>('document.page-images');

const dedupeKey = (hash: string) => `document.page-images:${hash}`;

/**
 * Pages done side by side (the conversion pool queues what its threads cannot take yet); the
 * manifest is written after each batch, so that a restart redoes at most these.
 */
const BATCH_PAGES = 16;

/** Queues the images of the file's pages, when some are left (one job per file at a time). */
export async function enqueuePageImages(app: BackendContext, hash: string, manifest: Manifest): Promise<void> {
  if (Object.keys(manifest.pendingImages ?? {}).length === 0) return;
  await app.jobs.enqueue(pageImagesKind, { hash }, { dedupeKey: dedupeKey(hash), again: true });
}

/**
 * The job: each page the manifest lists with pending images is brought to reading resolution
 * (a scan is left as it is when its WebP is not smaller); the manifest says so after every
 * batch, and the files it no longer names are deleted after it. Leaves the file to a conversion queued or
 * running (which queues this job again when it ends), and stops, deleting the pages it wrote,
 * when the conversion it started from is gone (a reconversion, a purge).
 */
export async function bringImagesToReadingResolution(
  app: BackendContext,
  hash: string,
  job: JobContext,
): Promise<void> {
  if (await conversionPending(app, hash)) return;
  const start = await readManifest(app, hash);
  if (!start) return;
  // what a run ended between a manifest and its deletions left (the job runs again after such an end)
  await deleteUnnamedFiles(app, hash, start);
  const pending = Object.entries(start.pendingImages ?? {}).map(([n, images]) => ({ n: Number(n), images }));
  if (pending.length === 0) return;
  const manifest: Manifest = { ...start, pageFiles: [...start.pageFiles], pendingImages: { ...start.pendingImages } };
  /** files this job made, and the files they replace */
  const written: string[] = [];
  let replaced: string[] = [];
  let done = 0;

  /**
   * Writes what is done into the manifest, unless the conversion changed under the job; then deletes the files
   * replaced.
   */
  const checkpoint = async (): Promise<boolean> => {
    const current = await readManifest(app, hash);
    if (current?.convertedAt !== start.convertedAt || (await conversionPending(app, hash))) {
      for (const file of written) if (!current?.pageFiles.includes(file)) await app.blobs.delete(outputKey(hash, file));
      return false;
    }
    // the positions job may have filled them in meanwhile (positions.ts)
    if (current.positions) manifest.positions = current.positions;
    await writeManifest(app, hash, manifest);
    for (const file of replaced) await app.blobs.delete(outputKey(hash, file));
    replaced = [];
    return true;
  };

  /** One page, under its new name: a scan's WebP, or the gzip SVG with its photos at reading resolution. */
  const lighten = async ({ n, images }: (typeof pending)[number]) => {
    const file = manifest.pageFiles[n - 1];
    const stored = file ? await readBlob(app, outputKey(hash, file)) : null;
    const lighter = stored && (await app.converter.pageAtReadingResolution(n, stored, images, job.signal));
    if (lighter) {
      written.push(lighter.file);
      await app.blobs.put(outputKey(hash, lighter.file), lighter.bytes);
      manifest.pageFiles[n - 1] = lighter.file;
      replaced.push(file!);
    }
    delete manifest.pendingImages![String(n)];
  };

  for (let from = 0; from < pending.length; from += BATCH_PAGES) {
    job.signal.throwIfAborted();
    const batch = pending.slice(from, from + BATCH_PAGES);
    await Promise.all(batch.map(lighten));
    done += batch.length;
    if (done === pending.length) delete manifest.pendingImages;
    if (!(await checkpoint())) return;
    // Page 1 has its new name: the documents ask for it so (a page with photos was recorded as a plain SVG).
    if (batch.some((page) => page.n === 1))
      await updateDocuments(
        app.db,
        (await documentsByHash(app.db, hash)).map((d) => d.id),
        pageFormat(manifest),
      );
    await job.reportProgress({ done, total: pending.length });
  }
}
