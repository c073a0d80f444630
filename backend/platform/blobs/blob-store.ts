import type { Readable } from 'node:stream';
import { ApiError, BLOB_STORE_UNAVAILABLE, Code } from '../../wire/errors';

// Where the backend keeps files (uploads, document originals, rendered pages): named by
// `/`-separated keys, never by filesystem paths, so that an S3-compatible store can replace
// the local disk without touching callers (docs/operations.md, "Scaling").

export interface BlobInfo {
  size: number;
  mtime: Date;
}

export interface BlobRead extends BlobInfo {
  stream: Readable;
  /** Bytes the stream yields: the range's length, or `size` without a range. */
  length: number;
}

/** Bytes `start`..`end`, both inclusive like HTTP `Range` and S3's `GetObject`. */
export interface ByteRange {
  start: number;
  /** Default: the last byte. Clamped to the blob's end. */
  end?: number;
}

export interface PutOptions {
  /** Refuse (BlobTooLargeError) as soon as more bytes than this arrive. */
  maxBytes?: number;
  /**
   * Aborted when the bytes are no longer wanted (the uploading client left): the store stops at
   * once with the signal's reason, its requests to a remote service cut and nothing of the
   * upload kept (an S3 multipart upload aborted). A write to the local disk ends on its own.
   */
  signal?: AbortSignal;
}

export interface PutResult {
  size: number;
  /** Hex MD5 of the stored bytes, computed while they streamed in. */
  md5: string;
}

/** What a content-addressed upload looks like before it is kept. */
export interface BlobCandidate {
  md5: string;
  size: number;
  /** The first HEAD_BYTES bytes (or fewer when the blob is smaller). */
  head: Buffer;
}

export interface ContentAddressedOptions {
  /** Folder key the blob goes under, e.g. `uploads`. */
  prefix: string;
  /** Appended to the hash: `''` or a dot and 1–16 letters/digits, e.g. `.png`. */
  ext: string;
  maxBytes: number;
  /** As PutOptions.signal. */
  signal?: AbortSignal;
  /**
   * Runs once the bytes are in but before the blob is kept; a throw refuses the upload
   * (the error propagates, nothing stays behind, an existing blob of that hash is untouched).
   */
  check?: (candidate: BlobCandidate) => void | Promise<void>;
}

export interface ContentAddressedResult extends BlobCandidate {
  key: string;
  /** False when a blob with this hash was already stored (the new bytes were dropped). */
  created: boolean;
}

export interface BlobStore {
  /** Stores `source` at `key`, replacing any blob there; readers see the old or the whole new blob. */
  put(key: string, source: Readable | Buffer, opts?: PutOptions): Promise<PutResult>;
  /**
   * Stores `source` once per MD5 at `<prefix>/<h0>/<h1>/<h2>/<h3>/<h4>/<md5><ext>`. Refuses empty
   * input (BlobEmptyError) and input over `maxBytes` (BlobTooLargeError, raised the moment the
   * limit is passed). A Readable source is only read, never destroyed: after a refusal the
   * caller drains or destroys it.
   */
  putContentAddressed(source: Readable | Buffer, opts: ContentAddressedOptions): Promise<ContentAddressedResult>;
  /** null when there is no blob at `key`; BlobRangeError for a range outside the blob. */
  get(key: string, range?: ByteRange): Promise<BlobRead | null>;
  stat(key: string): Promise<BlobInfo | null>;
  exists(key: string): Promise<boolean>;
  /** True when a blob was removed. */
  delete(key: string): Promise<boolean>;
  /** Removes every blob under the folder `prefix/`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Keys of the blobs under the folder `prefix/` (`''`: all), in no promised order. */
  list(prefix: string): AsyncIterable<string>;
  /**
   * Optional capability: the file on this machine that holds `key` (it may not exist yet),
   * so the HTTP layer can use sendfile. Stores without local files leave it out or return null.
   */
  localPath?(key: string): string | null;
  /**
   * Optional capability: a short-lived URL from which a client fetches the blob itself (S3's
   * presigned GET), so that a large download does not pass through the site.
   */
  presignedUrl?(key: string, opts: PresignOptions): Promise<string>;
}

/** What the answer at a presigned URL carries instead of the stored object's own headers. */
export interface PresignOptions {
  /** `Content-Disposition`, e.g. `attachment; filename="a.pdf"`. */
  disposition: string;
  contentType: string;
}

/** How much of a content-addressed upload is handed to `check` and returned as `head`. */
export const HEAD_BYTES = 64 * 1024;

/** S3's own limit on key length, kept here so that every store accepts the same keys. */
const MAX_KEY_BYTES = 1024;

export class BlobStoreError extends Error {
  override name = 'BlobStoreError';
}

/**
 * The store did not answer (refused or cut connections, timeouts) or answered a server error
 * (5xx) after its client's retries: nothing was read or kept; the request may be made again.
 * A request that meets it is answered 503 (code 14); `cause` is the client's error.
 */
export class BlobStoreUnavailableError extends ApiError {
  override name = 'BlobStoreUnavailableError';
  constructor(options: { cause: unknown }) {
    super(Code.Unavailable, BLOB_STORE_UNAVAILABLE);
    this.cause = options.cause;
  }
}

export class BlobKeyError extends BlobStoreError {
  override name = 'BlobKeyError';
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
  }
}

export class BlobTooLargeError extends BlobStoreError {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
  }
}

export class BlobEmptyError extends BlobStoreError {
  override name = 'BlobEmptyError';
  constructor() {
    super('empty blob refused');
  }
}

export class BlobRangeError extends BlobStoreError {
  override name = 'BlobRangeError';
  constructor(
    readonly range: ByteRange,
    readonly size: number,
  ) {
    super(`range ${range.start}-${range.end ?? ''} outside a blob of ${size} bytes`);
  }
}

// C0 controls and DEL: they have no business in a name and confuse logs and terminals.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * Throws BlobKeyError unless `key` is a relative `/`-separated name whose segments are all
 * non-empty and none is `.` or `..`, without backslashes or control characters. Such a key
 * cannot name anything outside the store, whatever the store maps it to.
 */
export function assertBlobKey(key: string): void {
  if (key === '') throw new BlobKeyError(key, 'empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new BlobKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (key.startsWith('/')) throw new BlobKeyError(key, 'leading slash');
  if (key.includes('\\')) throw new BlobKeyError(key, 'backslash');
  if (CONTROL_CHARS.test(key)) throw new BlobKeyError(key, 'control character');
  for (const segment of key.split('/')) {
    if (segment === '') throw new BlobKeyError(key, 'empty segment');
    if (segment === '.' || segment === '..') throw new BlobKeyError(key, `"${segment}" segment`);
  }
}

/**
 * The segments of `key`, once assertBlobKey passed it and it does not lead into the store's
 * own temporary folder `reservedSegment` (null when the store has none among its keys).
 */
export function storeKeySegments(key: string, reservedSegment: string | null): string[] {
  assertBlobKey(key);
  const segments = key.split('/');
  if (segments[0] === reservedSegment) throw new BlobKeyError(key, 'reserved for temporary files');
  return segments;
}

const EXTENSION = /^(\.[A-Za-z0-9]{1,16})?$/;

/** `<prefix>/<h0>/<h1>/<h2>/<h3>/<h4>/<md5><ext>`, the layout MOREDOC and our `/uploads/` URLs use. */
export function contentAddressedKey(prefix: string, md5: string, ext: string): string {
  assertBlobKey(prefix);
  if (!/^[0-9a-f]{32}$/.test(md5)) throw new BlobKeyError(md5, 'not a lower-case hex MD5');
  if (!EXTENSION.test(ext)) throw new BlobKeyError(ext, 'extension must be a dot and 1–16 letters or digits');
  return [prefix, ...md5.slice(0, 5), `${md5}${ext}`].join('/');
}
