import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_ENVELOPE_BYTES, uploadLimitBytes, uploadTooLargeMessage } from '../../../shared/constants';
import { cleanName, nameProblems } from '../../../shared/validation';
import { ApiError, badRequest, Code } from '../../wire/errors';
import { continueIfExpected } from '../../wire/expect-continue';
import { BlobEmptyError, BlobTooLargeError } from '../../platform/blobs/blob-store';
import type { BackendContext } from '../../platform/context';
import { isBannedHash } from './store';

// Receiving the one file of an upload (`multipart/form-data`, field `file`): streamed into the
// blob store while hashing, never held in memory, and every way a client can get the body
// wrong answered with a 400 — a missing or absurd boundary, a body cut short, a size over the
// limit (refused from Content-Length before reading, or the moment a chunked body passes it).

export interface StoredFile {
  hash: string;
  /** lower-case, with its dot */
  ext: string;
  size: number;
  /** the client's file name, cleaned (cleanName), at most 255 characters */
  name: string;
  key: string;
  head: Buffer;
}

export interface ReceiveOptions {
  folder: 'uploads' | 'documents';
  /** the extensions accepted, lower-case, with their dot */
  extensions: readonly string[];
  /** The refusal of another extension (given with its dot). */
  badExtension: string | ((ext: string) => string);
  maxBytes: number;
  /** may refuse the content (it gets the first 64 KiB, the extension and the size) before the blob is kept */
  check?: (head: Buffer, ext: string, size: number) => void;
}

const MALFORMED = '上传的数据格式不正确，请通过 multipart/form-data 上传文件（字段 file）';

/** Registers upload routes in a scope that parses multipart bodies (one file, a few fields). */
export async function registerMultipartRoutes(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 10, parts: 20 } });
    routes(scope);
  });
}

export const tooLarge = (maxBytes: number) => badRequest(uploadTooLargeMessage(maxBytes));

/** The answer nobody reads to an upload whose client left before it: on its access line (status 499). */
const CLIENT_GONE = '客户端已断开，上传的文件未保存';

/** How long a refused upload's connection stays half-closed for the client to stop sending. */
const LINGER_MS = 2000;

/**
 * A refusal sent before the body was read: the connection closes after the answer, so that
 * the rest of the body is never read (nor waited for). Node ends a `Connection: close`
 * answer with `destroySoon()`; closing a socket while the client's bytes still arrive makes
 * the kernel reset the connection, and the client may lose the answer it was sent. So the
 * socket half-closes instead (a lingering close, as nginx does), discards what still
 * arrives, and goes when the client closes or after LINGER_MS.
 */
function refuseUnread(reply: FastifyReply, error: ApiError): ApiError {
  reply.header('connection', 'close');
  const socket = reply.request.raw.socket;
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
  return error;
}

/** RFC 2046 §5.1.1: 1 to 70 characters from a small set (busboy fails on longer ones with a plain Error). */
const BOUNDARY =
  /;\s*boundary=(?:"([0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?])"|([0-9A-Za-z'()+_,\-./:=?]{1,70}))\s*(;|$)/i;

function hasValidBoundary(request: FastifyRequest): boolean {
  return BOUNDARY.test(String(request.headers['content-type'] ?? ''));
}

/** Errors of busboy and @fastify/multipart: the client sent something that is not a valid form. */
function isMalformed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) return true;
  return /multipart|boundary|unexpected end of|malformed|part header|premature|needle/i.test(error.message);
}

/**
 * A file name as the browser named it: an HTML form (and `fetch` with FormData) writes `"`,
 * CR and LF in a multipart file name as `%22`, `%0D` and `%0A` (the HTML standard's
 * multipart/form-data encoding), which the multipart parser leaves as they are. Anything else
 * in the name is taken as sent.
 */
function formDataFileName(sent: string): string {
  return sent.replace(/%22|%0D|%0A/g, (escape) => ({ '%22': '"', '%0D': '\r', '%0A': '\n' })[escape]!);
}

export async function receiveFile(
  app: BackendContext,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: ReceiveOptions,
): Promise<StoredFile> {
  if (!request.isMultipart()) throw badRequest('请通过 multipart/form-data 上传文件（字段 file）');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes + UPLOAD_ENVELOPE_BYTES)
    throw refuseUnread(reply, tooLarge(opts.maxBytes));
  if (!hasValidBoundary(request)) throw refuseUnread(reply, badRequest(MALFORMED));
  // Decided from the headers: a client that waits for `100 Continue` may send its body now.
  continueIfExpected(request, reply);

  // One byte over the limit reaches the store, which refuses it. A second file is the parser's
  // files limit, met once the first is read (assertNoOtherFile).
  const files = request.files({
    limits: { fileSize: opts.maxBytes + 1, files: 1, fields: 10, fieldSize: 64 * 1024 },
  });
  let part;
  try {
    part = (await files.next()).value;
  } catch (error) {
    if (isMalformed(error)) throw refuseUnread(reply, badRequest(MALFORMED));
    // The body stalled before its file (wire/body-timeout.ts).
    if (error instanceof ApiError) throw refuseUnread(reply, error);
    throw error;
  }
  if (!part || part.fieldname !== 'file') throw refuseUnread(reply, badRequest('请上传文件（字段 file）'));
  // The name as it is stored and shown (no control or bidi override characters).
  const sentName = formDataFileName(part.filename);
  const [badName] = nameProblems(sentName, '文件名', Number.MAX_SAFE_INTEGER);
  if (badName) throw refuseUnread(reply, badRequest(badName));
  const fileName = cleanName(sentName);
  const ext = path.extname(fileName).toLowerCase();
  if (!opts.extensions.includes(ext)) {
    throw refuseUnread(
      reply,
      badRequest(typeof opts.badExtension === 'string' ? opts.badExtension : opts.badExtension(ext)),
    );
  }

  let streamFailed = false;
  part.file.once('error', () => {
    streamFailed = true;
  });
  // The client went away before its answer (the gateway's 504 while the bucket hung, a closed
  // tab): the bytes are not kept, and the store's put stops at once (its requests to a bucket
  // cut, a multipart upload aborted) rather than run its tries for no one.
  let clientGone = false;
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    clientGone = true;
    gone.abort(new Error(CLIENT_GONE));
  });
  const refuseIfGone = () => {
    if (clientGone) throw Object.assign(new ApiError(Code.Canceled, CLIENT_GONE), { statusCode: 499 });
  };
  try {
    const stored = await app.blobs.putContentAddressed(part.file, {
      prefix: opts.folder,
      ext,
      maxBytes: opts.maxBytes,
      signal: gone.signal,
      async check({ md5, head, size }) {
        refuseIfGone();
        await assertNoOtherFile(files);
        opts.check?.(head, ext, size);
        if (await isBannedHash(app.db, md5)) throw badRequest('文件已被标记为非法文件，禁止上传');
      },
    });
    if (part.file.truncated) throw tooLarge(opts.maxBytes);
    // Gone while the blob was copied: kept (an upload of the same bytes may share it), not recorded.
    refuseIfGone();
    return {
      hash: stored.md5,
      ext,
      size: stored.size,
      name: fileName.slice(0, 255),
      key: stored.key,
      head: stored.head,
    };
  } catch (error) {
    // Whatever the store met once its client had left (its put cut off above all): nobody to tell.
    refuseIfGone();
    // The store stopped reading; whatever the client still sends is not read, the connection closes.
    if (error instanceof BlobTooLargeError) throw refuseUnread(reply, tooLarge(opts.maxBytes));
    if (error instanceof BlobEmptyError) throw refuseUnread(reply, badRequest('文件为空'));
    if (error instanceof ApiError) throw refuseUnread(reply, error);
    if (streamFailed || isMalformed(error)) throw refuseUnread(reply, badRequest(MALFORMED));
    throw error;
  }
}

const ONE_FILE = '一次只能上传一个文件';

/**
 * Refuses a form with a second file once its first is read (before the first is kept): the rest
 * of the body is read up to its end or to the next file's headers, the parser's files limit.
 */
async function assertNoOtherFile(files: AsyncIterator<unknown>): Promise<void> {
  let other;
  try {
    other = await files.next();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_FILES_LIMIT') throw badRequest(ONE_FILE);
    if (isMalformed(error)) throw badRequest(MALFORMED);
    throw error;
  }
  if (!other.done) throw badRequest(ONE_FILE);
}

/** `security.max_document_size` in bytes (50 MB when unset or ≤ 0, as MOREDOC). */
export async function maxUploadBytes(app: BackendContext): Promise<number> {
  return uploadLimitBytes((await app.settings.snapshot()).int('security', 'max_document_size'));
}
