import type { BackendContext } from '../../platform/context';
import { jobKind, type JobContext } from '../../platform/jobs/job-queue';
import { conversionPending } from './conversion';
import { outputKey } from './files';
import { readBlob, readManifest, writeManifest, type Manifest } from './manifest';

// A scanned page (one JPEG over the whole page) is first stored as the JPEG its PDF holds, so
// that the document reads as soon as its conversion ends, at about the speed of mutool copying
// it into an SVG. This job then makes each such page the WebP at reading resolution it is
// worth (150 dpi, about a seventh of a 200 dpi scan's JPEG: bench/README.md, "Conversion"), on
// the conversion threads, and drops the JPEG. Until then, and for a page whose WebP would not
// be smaller, the JPEG is served (page-routes.ts serves whatever a page is stored as).

export const scanWebpKind = jobKind<{ hash: string }>('document.scan-webp');

const dedupeKey = (hash: string) => `document.scan-webp:${hash}`;

/**
 * Pages encoded side by side (the conversion pool queues what its threads cannot take yet);
 * the manifest is written after each batch, so that a restart redoes at most these.
 */
const BATCH_PAGES = 16;

/** Queues the WebP of the file's scan pages, when it has any left (one job per file at a time). */
export async function enqueueScanWebp(app: BackendContext, hash: string, manifest: Manifest): Promise<void> {
  if (Object.keys(manifest.scans ?? {}).length === 0) return;
  await app.jobs.enqueue(scanWebpKind, { hash }, { dedupeKey: dedupeKey(hash), again: true });
}

/**
 * The job: each scan page of the file's manifest becomes `<n>.webp` (or stays `<n>.jpg` when its
 * WebP is not smaller); the manifest says so every few pages, and the JPEGs it no longer names
 * are deleted after it. Leaves the file to a conversion queued or running (which queues this
 * job again when it ends), and stops, deleting what it wrote, when the conversion it started
 * from is gone (a reconversion, a purge): the files are the same content, but not its business.
 */
export async function encodeScanPages(app: BackendContext, hash: string, job: JobContext): Promise<void> {
  if (await conversionPending(app, hash)) return;
  const start = await readManifest(app, hash);
  const pending = Object.entries(start?.scans ?? {}).map(([n, target]) => ({ n: Number(n), target }));
  if (!start || pending.length === 0) return;
  const manifest: Manifest = { ...start, pageFiles: [...start.pageFiles], scans: { ...start.scans } };
  let replaced: string[] = [];
  let done = 0;

  /** Writes what is done into the manifest, unless the conversion changed under the job; then deletes the JPEGs replaced. */
  const checkpoint = async (): Promise<boolean> => {
    const current = await readManifest(app, hash);
    if (current?.convertedAt !== start.convertedAt || (await conversionPending(app, hash))) {
      for (const n of pending.slice(0, done).map((p) => p.n)) if (!current?.pageFiles.includes(`${n}.webp`)) await app.blobs.delete(outputKey(hash, `${n}.webp`));
      return false;
    }
    await writeManifest(app, hash, manifest);
    for (const file of replaced) await app.blobs.delete(outputKey(hash, file));
    replaced = [];
    return true;
  };

  // A batch at a time, its pages side by side on the conversion threads, then a checkpoint.
  for (let from = 0; from < pending.length; from += BATCH_PAGES) {
    job.signal.throwIfAborted();
    const batch = pending.slice(from, from + BATCH_PAGES);
    await Promise.all(batch.map(async ({ n, target }) => {
      const file = manifest.pageFiles[n - 1];
      const jpeg = file?.endsWith('.jpg') ? await readBlob(app, outputKey(hash, file)) : null;
      const webp = jpeg && (await app.converter.scanWebp(jpeg, target, job.signal));
      if (webp) {
        await app.blobs.put(outputKey(hash, `${n}.webp`), webp);
        manifest.pageFiles[n - 1] = `${n}.webp`;
        replaced.push(file!);
      }
      delete manifest.scans![String(n)];
    }));
    done += batch.length;
    if (done === pending.length) delete manifest.scans;
    if (!(await checkpoint())) return;
    await job.reportProgress({ done, total: pending.length });
  }
}

