import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db';
import { lockKeys, lockRows } from '../../db/dialect';
import type { DB } from '../../db/schema';
import { DocumentStatus, SITE_CONVERSION_FAILURES } from '../../../shared/constants';
import {
  ConversionError,
  memberConversionReason,
  MISSING_CONVERTER_MESSAGES,
  POSITIONS_VERSION,
  refusalOf,
  renderingRoute,
  sniffContent,
  type ContentKind,
  type ConversionResult,
} from '../../platform/convert/converter';
import type { BackendContext, ConversionSettings } from '../../platform/context';
import {
  isOutage,
  JobInterruptedError,
  jobBacklog,
  jobKind,
  type JobBacklog,
  type JobContext,
} from '../../platform/jobs/job-queue';
import { scratchFolder } from '../../platform/scratch';
import { documentUploadPaths } from '../attachment/service';
import { documentFailed, tell } from '../message/service';
import { freePages } from './access';
import { recountListed } from './author-counts';
import { keyOfPath, outputKey } from './files';
import { refreshSearchIndex } from './indexing';
import {
  deleteUnnamedFiles,
  MANIFEST,
  newManifest,
  readBlob,
  readManifest,
  writeManifest,
  type Manifest,
} from './manifest';
import { descriptionFrom } from './page-text';
import {
  awaitsReviewConversion,
  documentsByHash,
  failedWith,
  fileHashOf,
  setText,
  textOf,
  updateDocuments,
  waitingHashes,
  WAITING_STATUSES,
  type DocumentRow,
} from './store';

// Converting a document is a job of platform/jobs, one per file (MD5): every document made
// from the same file shares its pages, so the job converts the file once and then updates all
// of them in one transaction. The engine (platform/convert) works in a local folder; the
// outputs then move into the blob store under documents/<h0>/…/<h4>/<md5>/, with a manifest
// written last that says a complete conversion is there (a same-file upload reuses it, when
// the file's content bears out the upload's extension: refuseOtherContent). "The same file" is
// the same bytes under an extension of the same rendering route: a document's hash is its
// file's MD5, or one made from it and the route when documents of that MD5 render another way
// (documentHashFor).
// Status 0 or 5 → 1 while the job runs → 2 with the page count, or 3 with the reason. A file
// asked for while its job runs (a reconversion, another upload) gets one more run of that job.
// A document in review (6) converts too, keeping its status: its pages are there for the
// reviewer, and for everybody once it is approved; a failure keeps its reason for then.

export const convertDocumentKind = jobKind<{ hash: string }>('document.convert');

/**
 * The conversions waiting, the oldest one's wait and the processes converting, by the database's
 * clock (the dashboard's word when uploads sit at 待转换 with no worker, or too many for them).
 */
export const conversionBacklog = (db: Kysely<DB>): Promise<JobBacklog> => jobBacklog(db, convertDocumentKind.name);

export const convertDedupeKey = (hash: string) => `document.convert:${hash}`;

/** Conversions are shared between uploaders: one who queues many files takes no more slots than another's one file. */
export const convertFairKey = (userId: number) => `user:${userId}`;

const TEXT_FILE = 'text.txt';

/** Upper bound of a conversion when the admin's `converter.timeout` asks for more. */
export const MAX_CONVERSION_MS = 24 * 3600_000;

/**
 * Queues the conversion of these files, each on behalf of the uploader of one of its documents
 * (a file already queued or converting is not queued twice: its job keeps its uploader). With
 * `executor`, the job commits or rolls back with the caller's transaction.
 */
export async function enqueueConversions(
  app: BackendContext,
  files: readonly { hash: string; userId: number }[],
  executor?: Kysely<DB>,
): Promise<void> {
  const queued = new Set<string>();
  for (const { hash, userId } of files) {
    if (!hash || queued.has(hash)) continue;
    queued.add(hash);
    // again: a job already running for the file may have read its documents; it runs once more.
    await app.jobs.enqueue(
      convertDocumentKind,
      { hash },
      {
        dedupeKey: convertDedupeKey(hash),
        again: true,
        fairKey: convertFairKey(userId),
        ...(executor ? { executor } : {}),
      },
    );
  }
}

/**
 * The hash a new document of this file and extension is made under, which names its job and
 * the folder of its pages: the file's MD5, unless documents of that MD5 go another rendering
 * route (a .txt renders as plain text, a .csv of the same bytes as a table); then the MD5 of
 * `<md5>:<route>`, shared by every document of the file that goes this route. The same bytes
 * under two routes thus convert apart, and under one route once.
 */
export async function documentHashFor(trx: Database, fileHash: string, ext: string): Promise<string> {
  // Creations of documents of one file take turns until their transaction ends (PostgreSQL; SQLite's
  // writes already do): two at once would each see none of the other's route and take the MD5 alike.
  await lockKeys(trx, [`document-file:${fileHash}`]);
  const route = renderingRoute(ext);
  const others = await trx.selectFrom('document').select('ext').where('hash', '=', fileHash).execute();
  if (others.every((d) => renderingRoute(d.ext || ext) === route)) return fileHash;
  return createHash('md5').update(`${fileHash}:${route}`).digest('hex');
}

/**
 * `preview` as MOREDOC computes it: the smaller of `max_preview` and `max_preview_percent` % of the pages, at least 1.
 */
export function previewPages(pages: number, maxPreview: number, maxPreviewPercent: number): number {
  let preview = pages;
  if (maxPreview > 0) preview = Math.min(preview, maxPreview);
  if (maxPreviewPercent > 0 && maxPreviewPercent < 100)
    preview = Math.min(preview, Math.ceil((pages * maxPreviewPercent) / 100));
  return Math.max(1, preview);
}

async function readText(app: BackendContext, hash: string, name: string): Promise<string> {
  return (await readBlob(app, outputKey(hash, name)))?.toString('utf8') ?? '';
}

/** The uploaded original as a local file: the store's own file when it has one, else a copy in `scratch`. */
export async function originalFile(app: BackendContext, key: string, ext: string, scratch: string): Promise<string> {
  const local = app.blobs.localPath?.(key);
  if (local) return local;
  const blob = await app.blobs.get(key);
  if (!blob)
    throw new ConversionError('corrupt', {
      message: SITE_CONVERSION_FAILURES.originalMissing,
      detail: `missing blob ${key}`,
    });
  const copy = join(scratch, `original${ext}`);
  await pipeline(blob.stream, createWriteStream(copy));
  return copy;
}

/**
 * Moves the engine's outputs into the blob store; the manifest goes last, old files not in it go
 * after. `signal` (the job's) stops it between two files and ends the file being read, so that a
 * shutdown finds the job's handler returned and gives the job back at once: thousands of pages
 * to an S3 bucket take far longer than the second the queue waits after its abort.
 */
async function storeOutputs(
  app: BackendContext,
  hash: string,
  outDir: string,
  result: ConversionResult,
  text: string,
  ext: string,
  content: ContentKind,
  signal: AbortSignal,
): Promise<Manifest> {
  const names = [
    ...result.pageFiles.map((p) => p.file),
    ...result.positionFiles,
    result.cover.webp,
    result.cover.png,
    result.cover.bigPng,
  ];
  if (result.pdfFile) names.push(result.pdfFile);
  for (const name of names) {
    signal.throwIfAborted();
    await app.blobs.put(outputKey(hash, name), createReadStream(join(outDir, name), { signal }));
  }
  signal.throwIfAborted();
  await app.blobs.put(outputKey(hash, TEXT_FILE), Buffer.from(text, 'utf8'));
  signal.throwIfAborted();
  const pendingImages = Object.fromEntries(
    result.pageFiles.flatMap((p) => (p.pending ? [[String(p.n), p.pending]] : [])),
  );
  const manifest = newManifest({
    pages: result.pages,
    width: result.width,
    height: result.height,
    pageFiles: result.pageFiles.sort((a, b) => a.n - b.n).map((p) => p.file),
    ...(Object.keys(pendingImages).length ? { pendingImages } : {}),
    cover: result.cover,
    pdf: result.pdfFile,
    text: TEXT_FILE,
    textPages: result.pages,
    positions: POSITIONS_VERSION,
    converter: result.converter,
    route: renderingRoute(ext),
    content,
    convertedAt: new Date().toISOString(),
  });
  await writeManifest(app, hash, manifest);
  await deleteUnnamedFiles(app, hash, manifest);
  return manifest;
}

/** How the documents' pages are asked for, from page 1 as stored: `enable_gzip` and `preview_ext`. */
export function pageFormat(manifest: Manifest): { enable_gzip: number; preview_ext: string } {
  const first = manifest.pageFiles[0] ?? '';
  const svg = first === '' || first.endsWith('.svg');
  return { enable_gzip: first.endsWith('.gzip.svg') ? 1 : 0, preview_ext: svg ? '.svg' : '.webp' };
}

/**
 * The documents made from a file, read under their row locks: a status set meanwhile (a
 * review, a reconversion asked for) is seen, never overwritten. Their owners' rows are locked
 * first (their counts change), as by every transaction that changes users and documents.
 * A document made from the file by another member while this waited for the owners' rows is
 * left out: its owner's row is not held, and taking it now, after rows of others, could end in
 * a deadlock with a review of it (which holds that owner and waits for the document). Its
 * creation asked for the job to run again (`again`), and that run records it.
 */
async function lockedDocumentsByHash(trx: Database, hash: string) {
  const owners = new Set((await documentsByHash(trx, hash)).map((d) => d.user_id));
  await lockRows(trx, 'user', [...owners]);
  const ofLockedOwners = async () => (await documentsByHash(trx, hash)).filter((d) => owners.has(d.user_id));
  await lockRows(
    trx,
    'document',
    (await ofLockedOwners()).map((d) => d.id),
  );
  return ofLockedOwners();
}

/** Statuses of the documents a run of the job converts: waiting for it, or failed before (it takes the pages now). */
const CONVERTED_BY_THE_RUN: readonly number[] = [...WAITING_STATUSES, DocumentStatus.Failed];

/**
 * The free pages of a document a conversion of its file records: `preview` is set when the
 * document itself is converted (waiting for this run, failed before, or without pages yet: a
 * new document of a file converted before, one in review) from the settings of then, and kept
 * when the file's pages are recorded again for another document (a same-file upload, a
 * reconversion asked for another), only brought within the page count.
 */
function previewOf(doc: DocumentRow, pages: number, computed: number): number {
  if (CONVERTED_BY_THE_RUN.includes(doc.status) || doc.pages <= 0 || doc.preview <= 0) return computed;
  return Math.max(1, Math.min(doc.preview, pages));
}

/**
 * Records a finished conversion on every document made from the file whose extension agrees
 * with its content (`agrees`), in one transaction.
 */
async function applyManifest(
  app: BackendContext,
  hash: string,
  manifest: Manifest,
  text: string,
  agrees: (doc: DocumentRow) => boolean,
): Promise<number[]> {
  const cfg = await app.settings.snapshot();
  const computed = previewPages(
    manifest.pages,
    cfg.int('converter', 'max_preview'),
    cfg.int('converter', 'max_preview_percent'),
  );
  const pageColumns = {
    pages: manifest.pages,
    width: manifest.width,
    height: manifest.height,
    ...pageFormat(manifest),
  };
  return app.db.transaction().execute(async (trx) => {
    const documents = (await lockedDocumentsByHash(trx, hash)).filter(agrees);
    const preview = new Map(documents.map((d) => [d.id, previewOf(d, manifest.pages, computed)]));
    // A document asked to convert again while this conversion ran (status 5) keeps waiting, with
    // the pages meanwhile: the job runs once more for it (enqueueConversions, `again`).
    const converted = new Set(
      documents.filter(
        (d) =>
          d.status !== DocumentStatus.Disabled &&
          d.status !== DocumentStatus.PendingReview &&
          d.status !== DocumentStatus.ReviewRejected &&
          d.status !== DocumentStatus.Reconvert,
      ),
    );
    // One update per outcome (most documents of a file share it), not one per document.
    const updates = new Map<string, { ids: number[]; columns: Parameters<typeof updateDocuments>[2] }>();
    for (const d of documents) {
      const columns = converted.has(d)
        ? { ...pageColumns, preview: preview.get(d.id)!, status: DocumentStatus.Converted, convert_error: '' }
        : { ...pageColumns, preview: preview.get(d.id)! };
      const key = JSON.stringify(columns);
      updates.set(key, { ids: [...(updates.get(key)?.ids ?? []), d.id], columns });
    }
    // A description made from the text before (as this function or GetDocument makes one) follows the new text: a
    // reconversion that mends the pages (an EPUB's cover page once read "[image]") mends it too. One a person wrote stays.
    const madeFromText = new Set(documents.filter((d) => d.description.trim() === '').map((d) => d.id));
    for (const d of documents.filter((doc) => !madeFromText.has(doc.id))) {
      if (d.description === descriptionFrom(await textOf(trx, d.id), freePages(d), d.pages)) madeFromText.add(d.id);
    }
    for (const { ids, columns } of updates.values()) await updateDocuments(trx, ids, columns);
    const pagedText = { content: text, pages: manifest.textPages ?? 0 };
    await setText(
      trx,
      documents.map((d) => d.id),
      pagedText,
    );
    // Lists show the description to everybody: it comes from the document's free pages alone.
    for (const d of documents.filter((doc) => madeFromText.has(doc.id))) {
      const description = descriptionFrom(pagedText, preview.get(d.id)!, manifest.pages);
      if (description !== d.description) await updateDocuments(trx, [d.id], { description });
    }
    await recountListed(
      trx,
      documents.map((d) => d.user_id),
    );
    return documents.map((d) => d.id);
  });
}

/**
 * Marks the documents still waiting for this file failed (status 3) with the reason; those in
 * review keep their status and the reason (an approval tries again). Their uploaders are told,
 * those of the documents `retried` (they had failed before this run) that it failed again.
 * `which`: only these of them (the documents of one extension).
 */
async function failWaiting(
  db: Database,
  hash: string,
  reason: string,
  which: (doc: DocumentRow) => boolean = () => true,
  retried: ReadonlySet<number> = new Set(),
): Promise<{ failed: number[]; reviewed: number[] }> {
  return db.transaction().execute(async (trx) => {
    const documents = (await lockedDocumentsByHash(trx, hash)).filter(which);
    const waiting = documents.filter((d) => WAITING_STATUSES.includes(d.status));
    const reviewed = documents.filter(awaitsReviewConversion);
    await updateDocuments(
      trx,
      waiting.map((d) => d.id),
      { status: DocumentStatus.Failed, convert_error: reason.slice(0, 500) },
    );
    await updateDocuments(
      trx,
      reviewed.map((d) => d.id),
      { convert_error: reason.slice(0, 500) },
    );
    await recountListed(
      trx,
      waiting.map((d) => d.user_id),
    );
    await tell(
      trx,
      [...waiting, ...reviewed].map((d) => documentFailed(d, memberConversionReason(reason), retried.has(d.id))),
    );
    return { failed: waiting.map((d) => d.id), reviewed: reviewed.map((d) => d.id) };
  });
}

/**
 * Fails the file's waiting documents with the error's Chinese message (failWaiting) and logs
 * why, with what the tool said (`detail`, never shown to users): the message alone
 * (LibreOffice 无法转换此文档) leaves the admin who reads it nothing to look into.
 */
async function failConversion(
  app: BackendContext,
  hash: string,
  error: unknown,
  retried: ReadonlySet<number>,
  which?: (doc: DocumentRow) => boolean,
): Promise<void> {
  const known = error instanceof ConversionError ? error : null;
  const { failed, reviewed } = await failWaiting(
    app.db,
    hash,
    known?.message ?? SITE_CONVERSION_FAILURES.failed,
    which,
    retried,
  );
  const documents = [...failed, ...reviewed];
  if (known)
    app.log.warn({ hash, documents, reason: known.reason, detail: known.detail }, 'document conversion failed');
  else app.log.error({ hash, documents, err: error }, 'document conversion failed');
  await refreshSearchIndex(app, failed);
}

/**
 * A timeout that names the limit it passed (文档转换超时（限时 30 分钟）): the admin who reads it
 * knows what 转换超时(分钟) allowed; the engine's signal does not know it.
 */
function timedOut(limitMs: number, error: ConversionError): ConversionError {
  const limit = limitMs % 60_000 === 0 ? `${limitMs / 60_000} 分钟` : `${Math.ceil(limitMs / 1000)} 秒`;
  return new ConversionError('timeout', {
    message: `${SITE_CONVERSION_FAILURES.timeout}（限时 ${limit}）`,
    detail: error.detail,
  });
}

function conversionLimit(settings: ConversionSettings, configMinutes: number): number {
  if (settings.timeoutMs !== null) return settings.timeoutMs;
  return Math.min((configMinutes > 0 ? configMinutes : 30) * 60_000, MAX_CONVERSION_MS);
}

/** Throttled progress: the job row at most once a second, and the last value always. */
function progressReporter(job: JobContext): { report(done: number, total: number): void; flush(): Promise<void> } {
  let last = 0;
  let pending: { done: number; total: number } | null = null;
  let writing = Promise.resolve();
  const write = (value: { done: number; total: number }) => {
    writing = writing.then(() => job.reportProgress(value)).catch(() => undefined);
  };
  return {
    report(done, total) {
      pending = { done, total };
      if (Date.now() - last < 1000) return;
      last = Date.now();
      write(pending);
      pending = null;
    },
    async flush() {
      if (pending) write(pending);
      await writing;
    },
  };
}

/**
 * The job: fails the documents whose extension the file's content does not bear out, converts
 * the file unless a complete conversion of it exists and nobody asked for a fresh one (status
 * 5, or `converter.enable_convert_repeated_document`), then records the outcome on every other
 * document made from it, and answers the manifest of the pages it recorded.
 * A conversion error fails the documents (status 3) and ends the job; a shutdown leaves the job
 * to the next start.
 */
export async function runConversion(
  app: BackendContext,
  settings: ConversionSettings,
  hash: string,
  job: JobContext,
  maxAttempts: number,
): Promise<Manifest | null> {
  const documents = await documentsByHash(app.db, hash);
  const waiting = documents.filter((d) => WAITING_STATUSES.includes(d.status));
  if (!waiting.length && !documents.some(awaitsReviewConversion)) return null;
  const cfg = await app.settings.snapshot();
  const fresh =
    waiting.some((d) => d.status === DocumentStatus.Reconvert) ||
    cfg.bool('converter', 'enable_convert_repeated_document');
  // Those that failed before (approved after a failure in review, sent to convert again) are told a new failure is one
  // again. Their reason stays until this try ends (pages clear it, a failure replaces it; the screens show none
  // meanwhile): a run stopped by a restart, or retried after an error, still knows it.
  const retried = new Set(waiting.filter((d) => d.convert_error !== '').map((d) => d.id));
  await updateDocuments(
    app.db,
    waiting.map((d) => d.id),
    { status: DocumentStatus.Converting },
  );

  const timeoutMs = conversionLimit(settings, cfg.int('converter', 'timeout'));
  const scratch = await scratchFolder('moredoc-document');
  try {
    const source = await sourceOf(app, hash, documents);
    let manifest = fresh ? null : await readManifest(app, hash);
    // A conversion from before the page texts were kept apart: its text cannot be cut at a page
    // (page-text.ts), so the file is converted again; the engine has no pass for the text alone.
    if (manifest && !manifest.textPages) manifest = null;
    // The original is read (on S3: downloaded) only to convert it, or to learn what it holds when
    // the conversion reused does not say.
    let sourcePath: string | undefined;
    const original = async () => (sourcePath ??= await originalFile(app, source.key, source.ext, scratch));
    const content = manifest?.content ?? (await sniffContent(await original()));
    const { agrees, ext } = await refuseOtherContent(app, hash, documents, source.ext, content, retried);
    if (ext === null) return null;
    // Pages of another route (documents of that one all gone, their folder not yet purged) are not these documents'.
    if (manifest?.route !== undefined && manifest.route !== renderingRoute(ext)) manifest = null;
    let text: string;
    if (manifest) {
      text = await readText(app, hash, manifest.text);
    } else {
      await app.blobs.delete(outputKey(hash, MANIFEST));
      const outDir = join(scratch, 'out');
      const progress = progressReporter(job);
      const result = await app.converter.convertDocument({
        sourcePath: await original(),
        ext,
        outDir,
        signal: job.signal,
        onProgress: ({ done, total }) => progress.report(done, total),
        limits: {
          timeoutMs,
          pageTimeoutMs: settings.pageTimeoutMs,
          maxPages: settings.maxPages,
        },
      });
      await progress.flush();
      text = result.text;
      manifest = await storeOutputs(app, hash, outDir, result, text, ext, content, job.signal);
    }
    await refreshSearchIndex(app, await applyManifest(app, hash, manifest, text, agrees));
    return manifest;
  } catch (error) {
    if (job.signal.aborted && job.signal.reason instanceof JobInterruptedError) throw error;
    const lastAttempt = job.attempt >= maxAttempts;
    if (error instanceof ConversionError && error.reason !== 'aborted') {
      await failConversion(app, hash, error.reason === 'timeout' ? timedOut(timeoutMs, error) : error, retried);
      return null;
    }
    // An outage (the bucket or the database away) is not the document's: its job runs again later.
    if (!lastAttempt || isOutage(error)) throw error;
    await failConversion(app, hash, error, retried);
    return null;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A document's extension, lower case with its dot; a row without one (imported) goes by the stored upload's. */
const extensionOf = (doc: DocumentRow, uploaded: string) => (doc.ext || uploaded).toLowerCase();

/**
 * Each document of the file meets the check a first upload of it meets (the content must bear
 * out its extension: planConversion), also when the file was converted before under another
 * extension and its pages are there. Those it refuses fail here with the reason; the others
 * (`agrees`) take the pages, converted under `ext`: the stored upload's extension when it
 * agrees, else an agreeing one of the documents to convert (null when none is).
 */
async function refuseOtherContent(
  app: BackendContext,
  hash: string,
  documents: readonly DocumentRow[],
  uploaded: string,
  content: ContentKind,
  retried: ReadonlySet<number>,
): Promise<{ agrees: (doc: DocumentRow) => boolean; ext: string | null }> {
  const refusals = new Map<string, ConversionError | null>();
  const refusal = (ext: string) => {
    if (!refusals.has(ext)) refusals.set(ext, refusalOf(ext, content));
    return refusals.get(ext)!;
  };
  const agrees = (doc: DocumentRow) => refusal(extensionOf(doc, uploaded)) === null;
  const toConvert = documents.filter((d) => WAITING_STATUSES.includes(d.status) || awaitsReviewConversion(d));
  for (const ext of new Set(toConvert.map((d) => extensionOf(d, uploaded)))) {
    const error = refusal(ext);
    if (error) await failConversion(app, hash, error, retried, (d) => extensionOf(d, uploaded) === ext);
  }
  const agreeing = toConvert.filter(agrees);
  if (!agreeing.length) return { agrees, ext: null };
  return { agrees, ext: refusal(uploaded.toLowerCase()) === null ? uploaded : extensionOf(agreeing[0]!, uploaded) };
}

/**
 * The stored original of the documents of `hash`: the key of a document upload of their file
 * (fileHashOf: their hash, or their upload's under another route), and its extension.
 */
export async function sourceOf(
  app: BackendContext,
  hash: string,
  documents: readonly DocumentRow[],
): Promise<{ key: string; ext: string }> {
  const fileHash = documents.length ? await fileHashOf(app.db, documents) : hash;
  const paths = await documentUploadPaths(app.db, fileHash);
  const preferred = documents.map((d) => d.ext);
  const path = paths.find((p) => preferred.some((ext) => ext && p.endsWith(ext))) ?? paths[0];
  if (!path)
    throw new ConversionError('corrupt', {
      message: SITE_CONVERSION_FAILURES.originalMissing,
      detail: `no upload with hash ${hash}`,
    });
  const key = keyOfPath(path);
  return { key, ext: key.slice(key.lastIndexOf(fileHash) + fileHash.length) };
}

/**
 * Documents that failed only because LibreOffice or calibre was missing go back to the
 * converter once it is there (installed, then the site restarted); the others stay failed.
 */
async function retryMissingConverters(app: BackendContext): Promise<void> {
  const failed = await failedWith(app.db, Object.values(MISSING_CONVERTER_MESSAGES));
  if (!failed.length) return;
  const tools = await app.converter.detectConverters();
  const installed = (Object.keys(MISSING_CONVERTER_MESSAGES) as (keyof typeof MISSING_CONVERTER_MESSAGES)[])
    .filter((name) => tools[name] !== undefined)
    .map((name) => MISSING_CONVERTER_MESSAGES[name]);
  const again = failed.filter((d) => (installed as string[]).includes(d.convert_error));
  if (!again.length) return;
  await app.db.transaction().execute(async (trx) => {
    await updateDocuments(
      trx,
      again.map((d) => d.id),
      { status: DocumentStatus.Pending, convert_error: '' },
    );
    await enqueueConversions(
      app,
      again.map((d) => ({ hash: d.hash, userId: d.user_id })),
      trx,
    );
  });
  await refreshSearchIndex(
    app,
    again.map((d) => d.id),
  );
}

/**
 * After a start: queues every file whose documents wait for the converter and have no job
 * (a database from MOREDOC, or jobs lost), fails documents stuck converting whose last job
 * gave up (its process died on every attempt), and tries again those that failed for a
 * converter installed since.
 */
export async function resumeConversions(app: BackendContext): Promise<void> {
  await retryMissingConverters(app);
  for (const { hash, status, userId } of await waitingHashes(app.db)) {
    const key = convertDedupeKey(hash);
    const [latest] = await app.jobs.list({ dedupeKey: key, limit: 1 });
    if (latest && (latest.state === 'queued' || latest.state === 'running')) continue;
    if (status === DocumentStatus.Converting && latest?.state === 'failed') {
      await refreshSearchIndex(app, (await failWaiting(app.db, hash, SITE_CONVERSION_FAILURES.interrupted)).failed);
      continue;
    }
    await enqueueConversions(app, [{ hash, userId }]);
  }
}

/** Whether a conversion of the file is queued or running. */
export async function conversionPending(app: BackendContext, hash: string): Promise<boolean> {
  return (
    (await app.jobs.list({ dedupeKey: convertDedupeKey(hash), state: ['queued', 'running'], limit: 1 })).length > 0
  );
}

/** The pages done of the total while the file's conversion runs, for GetDocument. */
export async function conversionProgress(
  app: BackendContext,
  hash: string,
): Promise<{ done: number; total: number } | null> {
  if (!hash) return null;
  const [job] = await app.jobs.list({ dedupeKey: convertDedupeKey(hash), state: ['queued', 'running'], limit: 1 });
  if (!job) return null;
  const progress = job.progress as { done?: unknown; total?: unknown } | null;
  if (progress && typeof progress.done === 'number' && typeof progress.total === 'number')
    return { done: progress.done, total: progress.total };
  return { done: 0, total: 0 };
}
