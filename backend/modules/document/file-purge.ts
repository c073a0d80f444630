import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { documentUploadPaths, hashHasLiveUpload } from '../attachment/service';
import { keyOfPath, outputFolder } from './files';
import { hashHasDocuments } from './store';

// The files of a document purged from the recycle bin go after `security.attachment_retention_minute`
// (a job, so a restart loses nothing) and only when no other document or upload uses the same
// content: the original(s) and the whole folder of pages, covers, text and intermediate PDF.

export const purgeFilesKind = jobKind<{ hash: string }>('document.purge-files');

/** Queues the purge of these files with the caller's transaction (`executor`), so a crash cannot lose it. */
export async function schedulePurges(
  app: BackendContext,
  hashes: readonly string[],
  executor: Kysely<DB>,
): Promise<void> {
  const minutes = Math.max((await app.settings.snapshot()).int('security', 'attachment_retention_minute'), 0);
  // From the database's now: a process whose clock is off neither hastens nor delays it.
  const delayMs = minutes * 60_000;
  for (const hash of new Set(hashes)) {
    if (hash) await app.jobs.enqueue(purgeFilesKind, { hash }, { delayMs, executor });
  }
}

/** Removes the files of `hash` unless something still uses them; returns whether it did. */
export async function purgeFiles(app: BackendContext, hash: string): Promise<boolean> {
  if ((await hashHasDocuments(app.db, hash)) || (await hashHasLiveUpload(app.db, hash))) return false;
  await app.blobs.deletePrefix(outputFolder(hash));
  for (const path of await documentUploadPaths(app.db, hash)) await app.blobs.delete(keyOfPath(path));
  return true;
}
