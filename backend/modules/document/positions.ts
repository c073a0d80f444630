import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversionError, POSITIONS_VERSION, positionsFile } from '../../platform/convert/converter';
import type { BackendContext } from '../../platform/context';
import { jobKind, PermanentJobError, type JobContext } from '../../platform/jobs/job-queue';
import { scratchFolder } from '../../platform/scratch';
import { conversionPending, originalFile, sourceOf } from './conversion';
import { outputKey } from './files';
import { readBlob, readManifest, writeManifest } from './manifest';
import { convertedHashes, documentsByHash } from './store';

// Documents converted before the positions of their characters were kept (text-positions.ts)
// get them from a job of their own, so the reader's find marks and text layer work there too:
// MuPDF reads them from the PDF the conversion kept (LibreOffice's or calibre's) or from the
// upload, without drawing a page (a fraction of a conversion). A sweep, queued at every start
// until it has once gone through the library, queues that job for each file whose manifest
// lacks them, and leaves a marker in the blob store when done.

export const positionsKind = jobKind<{ hash: string }>('document.positions');
export const positionsSweepKind = jobKind<Record<string, never>>('document.positions-sweep');

const SWEEP_MARKER = 'documents/positions-backfill.json';

/** Queues the sweep, unless one went through the library for this version of the positions. */
export async function scheduleMissingPositions(app: BackendContext): Promise<void> {
  const marker = await readBlob(app, SWEEP_MARKER);
  if (marker && (JSON.parse(marker.toString('utf8')) as { version?: number }).version === POSITIONS_VERSION) return;
  await app.jobs.enqueue(positionsSweepKind, {}, { dedupeKey: 'document.positions-sweep' });
}

/** The sweep: a positions job for each converted file that has none, then the marker. */
export async function queueMissingPositions(app: BackendContext, job: JobContext): Promise<void> {
  for (const hash of await convertedHashes(app.db)) {
    job.signal.throwIfAborted();
    const manifest = await readManifest(app, hash);
    if (manifest && manifest.positions !== POSITIONS_VERSION) {
      await app.jobs.enqueue(positionsKind, { hash }, { dedupeKey: `document.positions:${hash}` });
    }
  }
  await app.blobs.put(
    SWEEP_MARKER,
    Buffer.from(JSON.stringify({ version: POSITIONS_VERSION, doneAt: new Date().toISOString() }), 'utf8'),
  );
}

/**
 * The job: the positions of every page of the file, from the PDF the conversion kept or the
 * upload, then the manifest says they are there. A conversion queued or running makes its own,
 * and so does one that ended meanwhile (same file, same positions: nothing to undo).
 */
export async function fillInPositions(app: BackendContext, hash: string, job: JobContext): Promise<void> {
  if (await conversionPending(app, hash)) return;
  const manifest = await readManifest(app, hash);
  if (!manifest || manifest.positions === POSITIONS_VERSION) return;
  const scratch = await scratchFolder('moredoc-positions');
  try {
    const source = manifest.pdf
      ? { key: outputKey(hash, manifest.pdf), ext: '.pdf' }
      : await sourceOf(app, hash, await documentsByHash(app.db, hash));
    const outDir = join(scratch, 'out');
    const { pages } = await app.converter.extractPositions({
      sourcePath: await originalFile(app, source.key, source.ext, scratch),
      ext: source.ext,
      outDir,
      signal: job.signal,
      limits: { pageTimeoutMs: app.conversion.pageTimeoutMs },
    });
    if (pages !== manifest.pages)
      throw new PermanentJobError(`the file has ${pages} pages, its conversion ${manifest.pages}`);
    for (let n = 1; n <= pages; n++)
      await app.blobs.put(outputKey(hash, positionsFile(n)), await readFile(join(outDir, positionsFile(n))));
    // The manifest as it is now (the page images job may have rewritten it meanwhile).
    const current = await readManifest(app, hash);
    if (current?.convertedAt === manifest.convertedAt)
      await writeManifest(app, hash, { ...current, positions: POSITIONS_VERSION });
  } catch (error) {
    if (error instanceof ConversionError && error.reason !== 'aborted')
      throw new PermanentJobError(`${error.reason}: ${error.detail ?? error.message}`);
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
