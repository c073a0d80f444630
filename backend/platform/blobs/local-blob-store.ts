import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobEmptyError,
  BlobRangeError,
  BlobTooLargeError,
  HEAD_BYTES,
  storeKeySegments,
  contentAddressedKey,
  type BlobInfo,
  type BlobRead,
  type BlobStore,
  type ByteRange,
  type ContentAddressedOptions,
  type ContentAddressedResult,
  type PutOptions,
  type PutResult,
} from './blob-store';

// The blob store on the local disk: key `a/b/c.png` is the file `<root>/a/b/c.png`. Bytes
// are written to a file in the temporary folder, flushed, then renamed (or hard-linked)
// into place, so a reader never sees a partial blob and a crash leaves only temp files,
// which `open` removes. Blobs are the owner's alone (files 0600, folders 0700), like the
// database and the secrets beside them: other local users read no original or page.

interface TempBlob extends PutResult {
  file: string;
  head: Buffer;
}

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** Permission bits of the group and others: none of them stays on a blob or a folder of blobs. */
const SHARED_BITS = 0o077;
/** The most a read stream asks of the disk at once (Node's default is 64 KiB). */
const MAX_READ_BYTES = 256 * 1024;

export class LocalBlobStore implements BlobStore {
  readonly root: string;
  readonly tmpDir: string;
  /** The first key segment that would land in tmpDir (when it lies directly in root). */
  private readonly reservedSegment: string | null;

  /**
   * `tmpDir` (default `<root>/tmp`) must be on the same filesystem as `root` for the rename
   * to be atomic. Use `open` in the process that owns the store: it also clears old temp files.
   */
  constructor(root: string, opts: { tmpDir?: string } = {}) {
    this.root = path.resolve(root);
    this.tmpDir = path.resolve(opts.tmpDir ?? path.join(this.root, 'tmp'));
    this.reservedSegment = path.dirname(this.tmpDir) === this.root ? path.basename(this.tmpDir) : null;
  }

  /**
   * Creates the folders, removes temp files left by a process that died mid-write, and
   * narrows what an earlier version left readable by others (`narrowModes`).
   */
  static async open(root: string, opts: { tmpDir?: string } = {}): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root, opts);
    await fsp.rm(store.tmpDir, { recursive: true, force: true });
    await fsp.mkdir(store.tmpDir, { recursive: true, mode: FOLDER_MODE });
    narrowModes(store.root);
    return store;
  }

  async put(key: string, source: Readable | Buffer, opts: PutOptions = {}): Promise<PutResult> {
    const target = this.fileOf(key);
    const temp = await this.writeTemp(source, opts.maxBytes);
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: FOLDER_MODE });
      await fsp.rename(temp.file, target);
      return { size: temp.size, md5: temp.md5 };
    } finally {
      await fsp.rm(temp.file, { force: true });
    }
  }

  async putContentAddressed(source: Readable | Buffer, opts: ContentAddressedOptions): Promise<ContentAddressedResult> {
    // Checks prefix and extension before a single byte is read.
    this.fileOf(contentAddressedKey(opts.prefix, '0'.repeat(32), opts.ext));
    const temp = await this.writeTemp(source, opts.maxBytes);
    try {
      if (temp.size === 0) throw new BlobEmptyError();
      const candidate = { md5: temp.md5, size: temp.size, head: temp.head };
      await opts.check?.(candidate);
      const key = contentAddressedKey(opts.prefix, temp.md5, opts.ext);
      const created = await this.linkIfAbsent(temp.file, this.fileOf(key));
      return { ...candidate, key, created };
    } finally {
      await fsp.rm(temp.file, { force: true });
    }
  }

  async get(key: string, range?: ByteRange): Promise<BlobRead | null> {
    const file = this.fileOf(key);
    let handle: FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      const { start, end } = resolveRange(range, stat.size);
      const length = end - start + 1;
      // The stream owns the handle from here: it closes it when it ends or is destroyed. It
      // stops at the size it was opened with (no read to find the end) and reads a page-sized
      // blob in one go: each read is a round trip through libuv's thread pool.
      const stream = handle.createReadStream(
        length > 0
          ? { start, end, autoClose: true, highWaterMark: Math.min(length, MAX_READ_BYTES) }
          : { autoClose: true },
      );
      return { stream, size: stat.size, mtime: stat.mtime, length };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const stat = await fsp.stat(this.fileOf(key)).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    return stat?.isFile() ? { size: stat.size, mtime: stat.mtime } : null;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<boolean> {
    const file = this.fileOf(key);
    if (!(await this.stat(key))) return false;
    try {
      await fsp.unlink(file);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    const folder = this.fileOf(prefix);
    const stat = await fsp.stat(folder).catch(() => null);
    if (!stat?.isDirectory()) return 0;
    let count = 0;
    for await (const _key of this.list(prefix)) count += 1;
    await fsp.rm(folder, { recursive: true, force: true });
    return count;
  }

  async *list(prefix: string): AsyncIterable<string> {
    const folder = prefix === '' ? this.root : this.fileOf(prefix);
    const pending: string[] = [folder];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (full !== this.tmpDir) pending.push(full);
        } else if (entry.isFile()) {
          yield path.relative(this.root, full).split(path.sep).join('/');
        }
      }
    }
  }

  localPath(key: string): string {
    return this.fileOf(key);
  }

  /** The file of a valid key; keys into the temp folder are refused too. */
  private fileOf(key: string): string {
    return path.join(this.root, ...storeKeySegments(key, this.reservedSegment));
  }

  /** Streams `source` into a new temp file while hashing; removes it on any failure. */
  private async writeTemp(source: Readable | Buffer, maxBytes: number | undefined): Promise<TempBlob> {
    await fsp.mkdir(this.tmpDir, { recursive: true, mode: FOLDER_MODE });
    const file = path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
    const handle = await fsp.open(file, 'wx', FILE_MODE);
    const md5 = crypto.createHash('md5');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    const take = async (chunk: Buffer) => {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) throw new BlobTooLargeError(maxBytes);
      md5.update(chunk);
      if (headLength < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLength);
        head.push(part);
        headLength += part.length;
      }
      await writeFully(handle, chunk);
    };
    try {
      if (Buffer.isBuffer(source)) {
        await take(source);
      } else {
        // Not destroyed when we stop early: the caller decides (drain an HTTP body, close a file).
        for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<
          Buffer | string | Uint8Array
        >) {
          await take(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        }
      }
      await handle.chmod(FILE_MODE);
      await handle.datasync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fsp.rm(file, { force: true });
      throw error;
    }
    await handle.close();
    return { file, size, md5: md5.digest('hex'), head: Buffer.concat(head) };
  }

  /**
   * Puts `file` at `target` unless something is there already (a hard link fails with EEXIST
   * instead of replacing); filesystems without hard links fall back to check-then-rename.
   */
  private async linkIfAbsent(file: string, target: string): Promise<boolean> {
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: FOLDER_MODE });
    try {
      await fsp.link(file, target);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV'].includes(errorCode(error) ?? '')) throw error;
    }
    if (fs.existsSync(target)) return false;
    await fsp.rename(file, target);
    return true;
  }
}

/**
 * Takes the group's and others' bits off every file and folder under `root` (and `root`
 * itself), as an install made before blobs were private left them (0644 in 0755). A folder
 * is narrowed after everything in it, so a folder found private was done before (or made
 * private, with private contents) and is not entered again: the first start after the
 * upgrade walks the whole store once, later starts look at the root's entries only.
 * Synchronous: it runs once at start, before the backend listens, and the sync calls are
 * the cheapest way through a large tree. What the process does not own is left as it is.
 */
export function narrowModes(root: string): void {
  const narrow = (file: string, mode: number, wanted: number) => {
    if ((mode & SHARED_BITS) === 0) return;
    try {
      fs.chmodSync(file, wanted);
    } catch (error) {
      if (!['EPERM', 'EACCES', 'ENOENT'].includes(errorCode(error) ?? '')) throw error;
    }
  };
  const walk = (folder: string, mode: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (['EACCES', 'ENOENT'].includes(errorCode(error) ?? '')) return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isFile()) continue;
      const full = path.join(folder, entry.name);
      const stat = fs.lstatSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isFile()) narrow(full, stat.mode, FILE_MODE);
      else if (stat.mode & SHARED_BITS) walk(full, stat.mode);
    }
    narrow(folder, mode, FOLDER_MODE);
  };
  const stat = fs.statSync(root);
  // The root's own entries are always looked at: its mode says nothing about them (DATA_DIR
  // may be a volume made private by whoever mounted it).
  walk(root, stat.mode);
}

async function writeFully(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  const end = Math.min(range.end ?? size - 1, size - 1);
  const valid =
    Number.isInteger(range.start) &&
    range.start >= 0 &&
    range.start < size &&
    (range.end === undefined || (Number.isInteger(range.end) && range.end >= range.start));
  if (!valid) throw new BlobRangeError(range, size);
  return { start: range.start, end };
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** ENOENT, or ENOTDIR when a parent segment of the key is a blob rather than a folder. */
function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
