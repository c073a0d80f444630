import { Readable } from 'node:stream';
import {
  BlobRangeError,
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

// A bounded in-process cache of small blobs in front of a remote store (S3): page images are
// read far more often than written, and each GetObject costs the site more CPU (the SDK's
// request building, signing, response parsing) than serving the page itself. docs/decisions/
// docs/decisions/041-small-blobs-from-s3-are-cached-for-seconds.md says why.
//
// Staleness: a blob key does not change when a document is converted again (pages are
// `documents/<hash>/<n>.gzip.svg` for good), and the conversion may run in another process
// (a worker), whose writes this cache cannot see. So every entry lives at most `ttlMs`: another
// instance's rewrite or removal shows here within that bound. This process's own writes and
// deletes (`put`, `delete`, `deletePrefix`) drop the keys at once, and a read that was under
// way while one of them ran is served but not kept.

export interface CachedBlobStoreOptions {
  /** Bytes of blob content kept at most (least recently used dropped first). */
  maxBytes: number;
  /** Blobs larger than this are streamed from the store and never kept. */
  maxBlobBytes: number;
  /** How long an entry is served before the store is asked again. */
  ttlMs: number;
  /** The clock (tests move it instead of waiting). */
  now?: () => number;
}

/** Defaults: 32 MiB in all, pages of at most 256 KiB, 10 s (the bound of the site's other per-process caches). */
export const CACHE_DEFAULTS = { maxBlobBytes: 256 * 1024, ttlMs: 10_000 } as const;

interface Entry extends BlobInfo {
  bytes: Buffer;
  /** When it was read from the store. */
  at: number;
}

export class CachedBlobStore implements BlobStore {
  /** Least recently used first (a Map keeps insertion order; a hit moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  /** Counts this process's writes and deletes: a read that saw it change may hold old bytes and is not kept. */
  private generation = 0;
  private bytes = 0;
  private readonly now: () => number;
  readonly presignedUrl?: (key: string, opts: PresignOptions) => Promise<string>;

  constructor(
    readonly inner: BlobStore,
    private readonly opts: CachedBlobStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const presign = inner.presignedUrl?.bind(inner);
    if (presign) this.presignedUrl = presign;
  }

  /** Bytes held now (for tests and figures). */
  get cachedBytes(): number {
    return this.bytes;
  }

  async get(key: string, range?: ByteRange): Promise<BlobRead | null> {
    const entry = this.fresh(key);
    if (entry) return readOf(entry, range);
    // A range of a blob not cached: the store serves just that range (it may be a large download).
    if (range) return this.inner.get(key, range);
    const generation = this.generation;
    const read = await this.inner.get(key);
    if (!read || read.length > this.opts.maxBlobBytes || read.length > this.opts.maxBytes) return read;
    const cached: Entry = {
      bytes: await bufferOf(read.stream, read.length),
      size: read.size,
      mtime: read.mtime,
      at: this.now(),
    };
    if (generation === this.generation) this.keep(key, cached);
    return readOf(cached, undefined);
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const entry = this.fresh(key);
    if (entry) return { size: entry.size, mtime: entry.mtime };
    return this.inner.stat(key);
  }

  async exists(key: string): Promise<boolean> {
    return this.fresh(key) !== null || this.inner.exists(key);
  }

  async put(key: string, source: Readable | Buffer, opts?: PutOptions): Promise<PutResult> {
    this.forget(key);
    try {
      return await this.inner.put(key, source, opts);
    } finally {
      // A read that started while the write was under way may have seen the old bytes.
      this.forget(key);
    }
  }

  async putContentAddressed(source: Readable | Buffer, opts: ContentAddressedOptions): Promise<ContentAddressedResult> {
    const result = await this.inner.putContentAddressed(source, opts);
    // Same key, same bytes: only the time may differ. Dropped all the same, to agree with the store.
    this.forget(result.key);
    return result;
  }

  async delete(key: string): Promise<boolean> {
    this.forget(key);
    try {
      return await this.inner.delete(key);
    } finally {
      this.forget(key);
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    this.forgetFolder(prefix);
    try {
      return await this.inner.deletePrefix(prefix);
    } finally {
      this.forgetFolder(prefix);
    }
  }

  list(prefix: string): AsyncIterable<string> {
    return this.inner.list(prefix);
  }

  /** The entry at `key` if it is still within its lifetime (and now the most recently used). */
  private fresh(key: string): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (this.now() - entry.at >= this.opts.ttlMs) {
      this.bytes -= entry.bytes.length;
      return null;
    }
    this.entries.set(key, entry);
    return entry;
  }

  private keep(key: string, entry: Entry): void {
    this.drop(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes.length;
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes.length;
  }

  private forget(key: string): void {
    this.generation += 1;
    this.drop(key);
  }

  private forgetFolder(prefix: string): void {
    this.generation += 1;
    const folder = `${prefix}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(folder)) this.drop(key);
  }
}

/** The entry's bytes, or the range of them, as the store would hand them out (BlobRangeError outside). */
function readOf(entry: Entry, range: ByteRange | undefined): BlobRead {
  const { size, mtime } = entry;
  if (!range) return { stream: streamOf(entry.bytes), size, mtime, length: size };
  const valid =
    Number.isInteger(range.start) &&
    range.start >= 0 &&
    range.start < size &&
    (range.end === undefined || (Number.isInteger(range.end) && range.end >= range.start));
  if (!valid) throw new BlobRangeError(range, size);
  const end = Math.min(range.end ?? size - 1, size - 1);
  const bytes = entry.bytes.subarray(range.start, end + 1);
  return { stream: streamOf(bytes), size, mtime, length: bytes.length };
}

function streamOf(bytes: Buffer): Readable {
  return Readable.from(bytes.length > 0 ? [bytes] : [], { objectMode: false });
}

/** The whole of a stream known to hold `length` bytes. */
async function bufferOf(stream: Readable, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (bytes.length !== length) throw new Error(`blob stream ended after ${bytes.length} of ${length} bytes`);
  return bytes;
}
