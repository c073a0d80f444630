import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import { isUnreachableCode } from '../../db/socket-errors';
import {
  BlobEmptyError,
  BlobRangeError,
  BlobStoreUnavailableError,
  BlobTooLargeError,
  HEAD_BYTES,
  contentAddressedKey,
  storeKeySegments,
  type BlobInfo,
  type BlobRead,
  type BlobStore,
  type ByteRange,
  type ContentAddressedOptions,
  type ContentAddressedResult,
  type PresignOptions,
  type PutOptions,
  type PutResult,
} from './blob-store';

// The blob store in an S3-compatible bucket (AWS, MinIO, Ceph, R2, OSS, COS…): key `a/b.png`
// is the object `<prefix>a/b.png`. Uploads stream through in parts of `partSize` bytes, hashed
// on the way; an object appears only when its upload completes (a small one is one PutObject,
// a larger one a multipart upload, aborted on any failure). Content-addressed uploads land
// under the reserved `tmp/` folder first, are checked, then copied to their final key.

// The AWS SDK loads with this module, at the first use of S3 (app.ts imports it only when
// S3_BUCKET is set): a static import would be hoisted into the server bundle's head and load the
// SDK at every start, about 0.3 s of CPU, S3 or not.
const {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client: S3ClientClass,
  UploadPartCommand,
} = await import('@aws-sdk/client-s3');
const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');

export interface S3BlobStoreOptions {
  bucket: string;
  /** Another service than AWS (MinIO, R2, OSS…): its base URL. */
  endpoint?: string;
  region: string;
  /** Both or neither: without them the SDK's own chain (AWS_* variables, instance roles) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Prepended to every key: `''` or a folder ending with `/`. */
  prefix: string;
  /** Lifetime of presigned download URLs; 0 (default) = the site streams downloads itself. */
  presignedSeconds?: number;
  /** Bytes per multipart part (at least S3's 5 MiB); smaller blobs are one PutObject. Default 8 MiB. */
  partSize?: number;
  /** Parts uploading at once while the next is read (memory: partSize × (this + 1)). Default 3. */
  partsInFlight?: number;
  /**
   * How long a request has to send its body and get the answer's headers (each try of the
   * SDK's): past it, the service counts as away (BlobStoreUnavailableError, 503). Default 60 s.
   * The body of an answer (a download streaming to a slow reader) has no limit.
   */
  requestTimeoutMs?: number;
  /**
   * The same for a request that sends no body and reads a file or its size (GetObject,
   * HeadObject: a page a reader waits on), each of the SDK's 3 tries. Default 8 s, at most
   * requestTimeoutMs: a page read from a bucket that stopped answering fails in about 25 s.
   */
  readTimeoutMs?: number;
}

/** Options of `put` that only this store knows. */
export interface S3PutOptions extends PutOptions {
  /**
   * The hex MD5 the bytes must have (the copy command knows it beforehand): kept as the
   * object's `md5` metadata, and the upload is abandoned (BlobDigestError) when they differ.
   */
  md5?: string;
}

/** What the start-up check of the bucket found wrong, with the setting to look at. */
export class S3BucketCheckError extends Error {
  override name = 'S3BucketCheckError';
  constructor(
    readonly variable: string,
    message: string,
    /** The service could not be reached or failed (5xx, no answer): a later try may succeed. */
    readonly away = false,
  ) {
    super(message);
  }
}

/** The bytes uploaded did not have the MD5 announced for them; nothing was kept. */
export class BlobDigestError extends Error {
  override name = 'BlobDigestError';
  constructor(
    readonly key: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${key}: MD5 ${actual} instead of ${expected}`);
  }
}

const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
/**
 * S3BlobStoreOptions.requestTimeoutMs's default: three 8 MiB parts at once still go up over a
 * link of 4 Mbit/s to the bucket; a page read from a bucket that stopped answering fails after
 * a minute a try rather than never.
 */
const REQUEST_TIMEOUT_MS = 60_000;
/**
 * S3BlobStoreOptions.readTimeoutMs's default. The headers of a GET or HEAD come as soon as the
 * service finds the object: the 60 s a try that uploads needs made a page read from a hung
 * bucket wait 3 tries, about 3 minutes, before its 503 (the reader long gone).
 */
const READ_TIMEOUT_MS = 8_000;
const TEMP_FOLDER = 'tmp';
/** Temporary objects older than this were left by a process that died (an upload lands there only once complete). */
const STALE_TEMP_MS = 3600_000;
/** The metadata key (`x-amz-meta-md5`) that holds the hex MD5 where the ETag is not one (multipart, copies). */
export const MD5_METADATA = 'md5';

interface Uploaded extends PutResult {
  head: Buffer;
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  private readonly partSize: number;
  private readonly partsInFlight: number;
  /** The SDK's per-request options of a GetObject or HeadObject. */
  private readonly read: { requestTimeout: number };
  /** A short-lived GET URL for a download that should not pass through the site; absent unless asked for. */
  readonly presignedUrl?: (key: string, opts: PresignOptions) => Promise<string>;

  constructor(opts: S3BlobStoreOptions) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix;
    this.partSize = Math.max(opts.partSize ?? DEFAULT_PART_BYTES, MIN_PART_BYTES);
    this.partsInFlight = Math.max(1, opts.partsInFlight ?? 3);
    const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.read = { requestTimeout: Math.min(opts.readTimeoutMs ?? READ_TIMEOUT_MS, requestTimeout) };
    // The SDK warns once, on Node 20, that its releases after January 2027 will need Node 22;
    // package.json pins a release that supports Node 20, so the warning only adds noise to
    // every start's output.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3ClientClass({
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
      // The SDK's default since 2025 adds CRC32 checksums, streamed bodies as aws-chunked with
      // trailers, which MinIO before 2025, Ceph, OSS, COS and s3rver refuse or store mangled.
      // Every body we send is a Buffer with its Content-MD5, so integrity is checked all the same.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Every page or download streaming to a slow client holds a socket: the SDK's 50 would
      // make the 51st reader wait for one of them.
      // A bucket that stopped answering (its server hung, a network cut that drops the packets of
      // the pool's kept-alive connections) left a request waiting without end: a page, an upload
      // or a conversion hung as long as the outage did. Past requestTimeout it is an error.
      requestHandler: {
        connectionTimeout: 5000,
        requestTimeout,
        throwOnRequestTimeout: true,
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
      },
    });
    this.client.middlewareStack.add(
      (next) => async (args) => {
        useContentMd5ForDeleteObjects(args.request, args.input);
        return next(args);
      },
      { step: 'build', priority: 'low', name: 'deleteObjectsContentMd5' },
    );
    // Outside the retries: what still failed after them, the service being away, is told apart.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          throw unavailableOr(error);
        }
      },
      { step: 'initialize', priority: 'high', name: 'blobStoreUnavailable' },
    );
    const seconds = opts.presignedSeconds ?? 0;
    if (seconds > 0) {
      this.presignedUrl = (key, presign) =>
        getSignedUrl(
          this.client,
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: this.objectKey(key),
            ResponseContentDisposition: presign.disposition,
            ResponseContentType: presign.contentType,
          }),
          { expiresIn: seconds },
        );
    }
  }

  /**
   * The store, once HeadBucket found the bucket answering with these keys (S3BucketCheckError
   * naming the setting otherwise); temporary objects of processes that died are removed.
   */
  static async open(opts: S3BlobStoreOptions): Promise<S3BlobStore> {
    const store = new S3BlobStore(opts);
    try {
      await store.client.send(new HeadBucketCommand({ Bucket: store.bucket }));
    } catch (error) {
      store.close();
      throw bucketCheckError(error, opts);
    }
    await store.removeStaleTemp();
    return store;
  }

  close(): void {
    this.client.destroy();
  }

  /** Resolves once the bucket answers a HeadBucket (`/readyz`); BlobStoreUnavailableError while the service is away. */
  async checkBucket(signal?: AbortSignal): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), signal ? { abortSignal: signal } : {});
  }

  async put(key: string, source: Readable | Buffer, opts: S3PutOptions = {}): Promise<PutResult> {
    const { size, md5 } = await this.upload(this.objectKey(key), source, {
      maxBytes: opts.maxBytes,
      expectedMd5: opts.md5,
      signal: opts.signal,
    });
    return { size, md5 };
  }

  async putContentAddressed(source: Readable | Buffer, opts: ContentAddressedOptions): Promise<ContentAddressedResult> {
    // Checks prefix and extension before a single byte is read.
    this.objectKey(contentAddressedKey(opts.prefix, '0'.repeat(32), opts.ext));
    const temp = `${this.prefix}${TEMP_FOLDER}/${crypto.randomUUID()}.part`;
    const { signal } = opts;
    let uploaded;
    try {
      uploaded = await this.upload(temp, source, { maxBytes: opts.maxBytes, refuseEmpty: true, signal });
    } catch (error) {
      // Cut off: a PutObject the service had read whole may have landed all the same (not waited for).
      if (signal?.aborted)
        void this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: temp })).catch(() => undefined);
      throw error;
    }
    try {
      const candidate = { md5: uploaded.md5, size: uploaded.size, head: uploaded.head };
      await opts.check?.(candidate);
      const key = contentAddressedKey(opts.prefix, uploaded.md5, opts.ext);
      const target = this.objectKey(key);
      // A lost race between two uploads of the same bytes copies identical content twice: harmless.
      signal?.throwIfAborted();
      const created = (await this.head(target, signal)) === null;
      if (created) {
        // CopyObject takes up to 5 GiB, far above any upload limit of the site.
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: target,
            CopySource: `${this.bucket}/${encodeKey(temp)}`,
            MetadataDirective: 'REPLACE',
            Metadata: { [MD5_METADATA]: uploaded.md5 },
          }),
          signal ? { abortSignal: signal } : {},
        );
      }
      return { ...candidate, key, created };
    } finally {
      // A failed delete must not hide the outcome: `open` removes what stays behind an hour later.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: temp })).catch(() => undefined);
    }
  }

  async get(key: string, range?: ByteRange): Promise<BlobRead | null> {
    const objectKey = this.objectKey(key);
    if (
      range &&
      !(
        Number.isInteger(range.start) &&
        range.start >= 0 &&
        (range.end === undefined || (Number.isInteger(range.end) && range.end >= range.start))
      )
    ) {
      const info = await this.head(objectKey);
      if (!info) return null;
      throw new BlobRangeError(range, info.size);
    }
    let answer;
    try {
      answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
        this.read,
      );
    } catch (error) {
      if (statusOf(error) === 404) return null;
      if (statusOf(error) !== 416 || !range) throw error;
      const info = await this.head(objectKey);
      if (!info) return null;
      throw new BlobRangeError(range, info.size);
    }
    const body = answer.Body as Readable;
    const mtime = answer.LastModified ?? new Date(0);
    const length = answer.ContentLength ?? 0;
    if (!range) return { stream: body, size: length, mtime, length };
    const served = /^bytes (\d+)-\d+\/(\d+)$/.exec(answer.ContentRange ?? '');
    const size = served ? Number(served[2]) : length;
    // Some servers answer a range on an empty object with its "whole" empty body instead of 416.
    if (range.start >= size) {
      body.destroy();
      throw new BlobRangeError(range, size);
    }
    const wanted = Math.min(range.end ?? size - 1, size - 1) - range.start + 1;
    const from = served ? Number(served[1]) : 0;
    if (from === range.start && length === wanted) return { stream: body, size, mtime, length };
    // A server that served more than asked (s3rver reads `bytes=0-0` as `bytes=0-`): cut it down.
    return { stream: Readable.from(sliceOf(body, range.start - from, wanted)), size, mtime, length: wanted };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    return this.head(this.objectKey(key));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    // DeleteObject succeeds for a missing key too: only a HEAD tells whether one was removed.
    if (!(await this.head(objectKey))) return false;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    return true;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const folder = `${this.objectKey(prefix)}/`;
    const keys: string[] = [];
    for await (const objectKey of this.listObjects(folder)) keys.push(objectKey);
    for (let from = 0; from < keys.length; from += 1000) {
      const batch = keys.slice(from, from + 1000);
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = answer.Errors?.[0];
      if (failed)
        throw new Error(
          `S3 DeleteObjects refused ${failed.Key ?? '?'}: ${failed.Code ?? ''} ${failed.Message ?? ''}`.trim(),
        );
    }
    return keys.length;
  }

  async *list(prefix: string): AsyncIterable<string> {
    const folder = prefix === '' ? this.prefix : `${this.objectKey(prefix)}/`;
    const temp = `${this.prefix}${TEMP_FOLDER}/`;
    for await (const objectKey of this.listObjects(folder)) {
      if (!objectKey.startsWith(temp)) yield objectKey.slice(this.prefix.length);
    }
  }

  /**
   * Size and hex MD5 of a stored blob as S3 knows them (the ETag of a single-part upload, else the `md5` metadata);
   * null when missing.
   */
  async digest(key: string): Promise<{ size: number; md5: string | null } | null> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
        this.read,
      );
      const etag = (answer.ETag ?? '').replace(/"/g, '');
      const md5 = answer.Metadata?.[MD5_METADATA] ?? (/^[0-9a-f]{32}$/.test(etag) ? etag : null);
      return { size: answer.ContentLength ?? 0, md5 };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /** The object key of a valid blob key; keys into the temporary folder are refused, as on disk. */
  private objectKey(key: string): string {
    storeKeySegments(key, TEMP_FOLDER);
    return this.prefix + key;
  }

  private async head(objectKey: string, signal?: AbortSignal): Promise<BlobInfo | null> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }),
        signal ? { ...this.read, abortSignal: signal } : this.read,
      );
      return { size: answer.ContentLength ?? 0, mtime: answer.LastModified ?? new Date(0) };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  private async *listObjects(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async removeStaleTemp(): Promise<void> {
    const before = Date.now() - STALE_TEMP_MS;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: `${this.prefix}${TEMP_FOLDER}/`,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && (object.LastModified?.getTime() ?? 0) < before)
          await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Streams `source` to `objectKey` while hashing it: one PutObject when it fits in a part,
   * else a multipart upload that is completed only once every byte is in and passed the
   * checks, and aborted otherwise. The source is read, never destroyed. `signal` cuts every
   * request of the upload (the SDK's tries too) and aborts it.
   */
  private async upload(
    objectKey: string,
    source: Readable | Buffer,
    opts: {
      maxBytes?: number | undefined;
      expectedMd5?: string | undefined;
      refuseEmpty?: boolean;
      signal?: AbortSignal | undefined;
    },
  ): Promise<Uploaded> {
    const { signal } = opts;
    const sendOptions = signal ? { abortSignal: signal } : {};
    const md5 = crypto.createHash('md5');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    let buffered: Buffer[] = [];
    let bufferedLength = 0;
    const multipart = new MultipartUpload(
      this.client,
      this.bucket,
      objectKey,
      this.partsInFlight,
      opts.expectedMd5,
      sendOptions,
    );
    try {
      const chunks: AsyncIterable<Buffer | string | Uint8Array> = Buffer.isBuffer(source)
        ? (async function* () {
            yield source;
          })()
        : // Not destroyed when we stop early: the caller decides (drain an HTTP body, close a file).
          (source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string | Uint8Array>);
      for await (const raw of chunks) {
        signal?.throwIfAborted();
        const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
        size += chunk.length;
        if (opts.maxBytes !== undefined && size > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
        md5.update(chunk);
        if (headLength < HEAD_BYTES) {
          const part = chunk.subarray(0, HEAD_BYTES - headLength);
          head.push(part);
          headLength += part.length;
        }
        buffered.push(chunk);
        bufferedLength += chunk.length;
        if (bufferedLength >= this.partSize) {
          const part = Buffer.concat(buffered, bufferedLength);
          buffered = [];
          bufferedLength = 0;
          await multipart.add(part);
        }
      }
      signal?.throwIfAborted();
      if (size === 0 && opts.refuseEmpty) throw new BlobEmptyError();
      const digest = md5.digest('hex');
      if (opts.expectedMd5 !== undefined && opts.expectedMd5 !== digest)
        throw new BlobDigestError(objectKey, opts.expectedMd5, digest);
      const rest = Buffer.concat(buffered, bufferedLength);
      if (multipart.started) {
        if (rest.length > 0) await multipart.add(rest);
        await multipart.complete();
      } else {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: objectKey,
            Body: rest,
            ContentLength: rest.length,
            ContentMD5: Buffer.from(digest, 'hex').toString('base64'),
            ...(opts.expectedMd5 !== undefined ? { Metadata: { [MD5_METADATA]: digest } } : {}),
          }),
          sendOptions,
        );
      }
      return { size, md5: digest, head: Buffer.concat(head) };
    } catch (error) {
      await multipart.abort();
      throw error;
    }
  }
}

/** The parts of one multipart upload, `inFlight` at most uploading at once. */
class MultipartUpload {
  private uploadId: string | undefined;
  private readonly parts: CompletedPart[] = [];
  private nextPart = 1;
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly inFlight: number,
    private readonly md5: string | undefined,
    /** The upload's abortSignal, for each request but the abort's. */
    private readonly sendOptions: { abortSignal?: AbortSignal },
  ) {}

  get started(): boolean {
    return this.uploadId !== undefined;
  }

  /** Starts uploading `part`; waits while `inFlight` parts are under way. */
  async add(part: Buffer): Promise<void> {
    this.uploadId ??= (
      await this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.key,
          ...(this.md5 !== undefined ? { Metadata: { [MD5_METADATA]: this.md5 } } : {}),
        }),
        this.sendOptions,
      )
    ).UploadId;
    if (!this.uploadId) throw new Error(`S3 CreateMultipartUpload answered no UploadId for ${this.key}`);
    const PartNumber = this.nextPart++;
    const sending = this.client
      .send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          PartNumber,
          Body: part,
          ContentLength: part.length,
          ContentMD5: crypto.createHash('md5').update(part).digest('base64'),
        }),
        this.sendOptions,
      )
      .then(
        (answer) => {
          this.parts.push({ PartNumber, ETag: answer.ETag });
        },
        (error: unknown) => {
          this.failure ??= { error };
        },
      );
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
    while (this.pending.size >= this.inFlight) await Promise.race(this.pending);
    if (this.failure) throw this.failure.error;
  }

  async complete(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure.error;
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: [...this.parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0)) },
      }),
      this.sendOptions,
    );
    this.uploadId = undefined;
  }

  /** Drops the parts sent so far (best effort: a bucket lifecycle rule catches what a crash leaves). */
  async abort(): Promise<void> {
    if (!this.uploadId) return;
    const uploadId = this.uploadId;
    this.uploadId = undefined;
    await Promise.allSettled(this.pending);
    await this.client
      .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: uploadId }))
      .catch(() => undefined);
  }
}

/** `take` bytes of `source` after skipping `skip`; the source is closed when they are out. */
async function* sliceOf(source: Readable, skip: number, take: number): AsyncIterable<Buffer> {
  for await (const raw of source) {
    let chunk = raw as Buffer;
    if (skip > 0) {
      const dropped = Math.min(skip, chunk.length);
      chunk = chunk.subarray(dropped);
      skip -= dropped;
    }
    if (chunk.length === 0) continue;
    yield chunk.subarray(0, take);
    take -= Math.min(take, chunk.length);
    if (take === 0) return;
  }
}

/** The HTTP status of an SDK error (404 for NoSuchKey and a HEAD's NotFound alike). */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/**
 * An SDK error that says the service is away (no answer, or a 5xx) as BlobStoreUnavailableError; any other as it is.
 */
function unavailableOr(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const status = statusOf(error);
  const code = (error as { code?: unknown }).code;
  const away = status === undefined ? isUnreachableCode(code) || error.name === 'TimeoutError' : status >= 500;
  if (!away) return error;
  return new BlobStoreUnavailableError({ cause: error });
}

/** A key as CopySource wants it: URL-encoded, its slashes kept. */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/**
 * DeleteObjects is the one request S3 wants a body checksum for; the SDK now sends CRC32,
 * which MinIO before 2025, Ceph and others refuse with MissingContentMD5: send Content-MD5.
 * Runs after the SDK's checksum step, before signing.
 */
function useContentMd5ForDeleteObjects(request: unknown, input: object): void {
  const http = request as { headers?: Record<string, string>; body?: unknown };
  if (!('Delete' in input) || !http.headers || !(typeof http.body === 'string' || http.body instanceof Uint8Array))
    return;
  for (const name of Object.keys(http.headers)) {
    if (/^x-amz-(sdk-)?checksum-/i.test(name)) delete http.headers[name];
  }
  http.headers['content-md5'] = crypto.createHash('md5').update(http.body).digest('base64');
}

/** The one-line reason a bucket check failed, naming the setting to look at. */
function bucketCheckError(thrown: unknown, opts: S3BlobStoreOptions): S3BucketCheckError {
  // The SDK's own error, which names the cause in the operator's terms.
  const error = thrown instanceof BlobStoreUnavailableError ? thrown.cause : thrown;
  const status = statusOf(error);
  const where = opts.endpoint ?? `AWS S3 (${opts.region})`;
  // No request was sent: without S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY the SDK's own chain
  // (AWS_* variables, profile files, instance role) found no keys either.
  if (error instanceof Error && error.name === 'CredentialsProviderError') {
    return new S3BucketCheckError(
      'S3_ACCESS_KEY_ID',
      `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: no keys for the bucket "${opts.bucket}" at ${where}: set both, or the AWS_* variables, or give the machine an instance role (${error.message})`,
    );
  }
  if (status === 404)
    return new S3BucketCheckError('S3_BUCKET', `S3_BUCKET: there is no bucket "${opts.bucket}" at ${where}`);
  if (status === 403 || status === 401) {
    return new S3BucketCheckError(
      'S3_ACCESS_KEY_ID',
      `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: ${where} refused access to the bucket "${opts.bucket}" (HTTP ${status}: wrong keys, or keys without rights on it)`,
    );
  }
  if (status === 301 || status === 400) {
    return new S3BucketCheckError(
      'S3_REGION',
      `S3_REGION: the bucket "${opts.bucket}" at ${where} is not in the region "${opts.region}" (HTTP ${status})`,
    );
  }
  const reason =
    error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
  if (status === undefined) {
    const code = (error as { code?: string } | null)?.code ?? '';
    // Virtual-hosted style asks `<bucket>.<endpoint host>`, which MinIO and Ceph hosts rarely resolve.
    const hint =
      opts.endpoint && !opts.forcePathStyle && ['ENOTFOUND', 'EAI_AGAIN'].includes(code)
        ? '; with MinIO or Ceph set S3_FORCE_PATH_STYLE=true'
        : '';
    return new S3BucketCheckError(
      'S3_ENDPOINT',
      `S3_ENDPOINT: ${where} cannot be reached (${reason})${hint}`,
      !hint && (isUnreachableCode(code) || thrown instanceof BlobStoreUnavailableError),
    );
  }
  return new S3BucketCheckError(
    'S3_BUCKET',
    `S3_BUCKET: checking the bucket "${opts.bucket}" at ${where} failed (HTTP ${status}: ${reason})`,
    status >= 500,
  );
}
