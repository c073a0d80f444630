import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobEmptyError, BlobKeyError, BlobRangeError, BlobTooLargeError, HEAD_BYTES } from '../../backend/platform/blobs/blob-store';
import { LocalBlobStore } from '../../backend/platform/blobs/local-blob-store';

// The local blob store through its public interface, on a real temporary folder.

let root: string;
let store: LocalBlobStore;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-blobs-'));
  store = await LocalBlobStore.open(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const CHUNK = 64 * 1024;

/** `total` pseudo-random bytes in 64 KiB chunks, produced on demand; `produced()` says how many so far. */
function generated(total: number, seed = 1) {
  let produced = 0;
  let state = crypto.createHash('sha256').update(String(seed)).digest();
  const md5 = crypto.createHash('md5');
  const stream = new Readable({
    read() {
      if (produced >= total) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(CHUNK, total - produced));
      for (let offset = 0; offset < chunk.length; offset += state.length) {
        state.copy(chunk, offset);
        state = crypto.createHash('sha256').update(state).digest();
      }
      produced += chunk.length;
      md5.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, produced: () => produced, md5: () => md5.digest('hex') };
}

async function md5Of(stream: Readable): Promise<{ md5: string; size: number }> {
  const hash = crypto.createHash('md5');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { md5: hash.digest('hex'), size };
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all.sort();
}

const tempFiles = () => fs.readdirSync(path.join(root, 'tmp'));

describe('put and get', () => {
  it('round-trips a 20 MB stream, hashing it on the way in', async () => {
    const source = generated(20 * 1024 * 1024);
    const put = await store.put('documents/big.bin', source.stream);
    const expectedMd5 = source.md5();
    expect(put).toEqual({ size: 20 * 1024 * 1024, md5: expectedMd5 });

    const read = await store.get('documents/big.bin');
    expect(read).toMatchObject({ size: 20 * 1024 * 1024, length: 20 * 1024 * 1024, mtime: expect.any(Date) });
    expect(await md5Of(read!.stream)).toEqual({ md5: expectedMd5, size: 20 * 1024 * 1024 });
    expect(tempFiles()).toEqual([]);
    expect(fs.statSync(path.join(root, 'documents/big.bin')).mode & 0o777).toBe(0o600);
  });

  it('shows nothing at the key until the whole blob is in, then replaces atomically', async () => {
    await store.put('pages/1.svg', Buffer.from('old'));
    const source = new PassThrough();
    const writing = store.put('pages/1.svg', source);
    source.write(Buffer.alloc(1000, 'n'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await store.stat('pages/1.svg'))?.size).toBe(3);
    expect(await collect(store.list('pages'))).toEqual(['pages/1.svg']);
    source.end(Buffer.alloc(24, 'n'));
    expect(await writing).toMatchObject({ size: 1024 });
    const read = await store.get('pages/1.svg');
    expect(await md5Of(read!.stream)).toEqual({ md5: crypto.createHash('md5').update(Buffer.alloc(1024, 'n')).digest('hex'), size: 1024 });
  });

  it('answers null for missing keys and for folders', async () => {
    await store.put('a/b/c.txt', Buffer.from('c'));
    expect(await store.get('a/missing.txt')).toBeNull();
    expect(await store.get('a/b')).toBeNull();
    expect(await store.get('a/b/c.txt/d')).toBeNull();
    expect(await store.stat('a/b')).toBeNull();
    expect(await store.exists('a/b/c.txt')).toBe(true);
    expect(await store.exists('a/b')).toBe(false);
  });

  it('refuses a put over maxBytes', async () => {
    await expect(store.put('x/too-big', Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.exists('x/too-big')).toBe(false);
    expect(tempFiles()).toEqual([]);
  });
});

describe('range reads', () => {
  const bytes = Buffer.from('0123456789abcdefghij');
  beforeEach(async () => {
    await store.put('r/text', bytes);
  });

  async function text(range: { start: number; end?: number }) {
    const read = await store.get('r/text', range);
    const chunks: Buffer[] = [];
    for await (const chunk of read!.stream) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks).toString(), length: read!.length, size: read!.size };
  }

  it('reads inclusive byte ranges and reports the whole size', async () => {
    expect(await text({ start: 10, end: 14 })).toEqual({ body: 'abcde', length: 5, size: 20 });
    expect(await text({ start: 15 })).toEqual({ body: 'fghij', length: 5, size: 20 });
    expect(await text({ start: 18, end: 100 })).toEqual({ body: 'ij', length: 2, size: 20 });
    expect(await text({ start: 0, end: 0 })).toEqual({ body: '0', length: 1, size: 20 });
  });

  it('refuses ranges outside the blob', async () => {
    await expect(store.get('r/text', { start: 20 })).rejects.toBeInstanceOf(BlobRangeError);
    await expect(store.get('r/text', { start: 5, end: 4 })).rejects.toBeInstanceOf(BlobRangeError);
    await expect(store.get('r/text', { start: -1 })).rejects.toBeInstanceOf(BlobRangeError);
  });
});

describe('content addressing', () => {
  const image = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), crypto.randomBytes(HEAD_BYTES + 5000)]);
  const md5 = crypto.createHash('md5').update(image).digest('hex');
  const key = `uploads/${md5.slice(0, 5).split('').join('/')}/${md5}.png`;

  it('stores identical content once, under the uploads layout', async () => {
    const first = await store.putContentAddressed(Readable.from([image.subarray(0, 1000), image.subarray(1000)]), { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20 });
    expect(first).toMatchObject({ key, md5, size: image.length, created: true });
    expect(first.head.equals(image.subarray(0, HEAD_BYTES))).toBe(true);
    const second = await store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20 });
    expect(second).toMatchObject({ key, md5, created: false });
    expect(await collect(store.list('uploads'))).toEqual([key]);
    expect(fs.readFileSync(path.join(root, key)).equals(image)).toBe(true);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses past maxBytes at once, stops reading and leaves nothing behind', async () => {
    const total = 8 * 1024 * 1024;
    const source = generated(total, 2);
    const refused = store.putContentAddressed(source.stream, { prefix: 'uploads', ext: '.bin', maxBytes: 1024 * 1024 });
    await expect(refused).rejects.toBeInstanceOf(BlobTooLargeError);
    // Read up to the limit plus what the stream had buffered ahead, not the 8 MB.
    expect(source.produced()).toBeLessThan(2 * 1024 * 1024);
    expect(source.stream.destroyed).toBe(false);
    source.stream.destroy();
    expect(tempFiles()).toEqual([]);
    expect(await collect(store.list(''))).toEqual([]);
  });

  it('refuses empty input', async () => {
    await expect(store.putContentAddressed(Readable.from([]), { prefix: 'uploads', ext: '.png', maxBytes: 10 })).rejects.toBeInstanceOf(BlobEmptyError);
    expect(tempFiles()).toEqual([]);
    expect(await collect(store.list(''))).toEqual([]);
  });

  it('lets check refuse the content before it is kept, without touching a stored copy', async () => {
    const refusal = new Error('not an image');
    const check = (candidate: { md5: string; head: Buffer }) => {
      expect(candidate.md5).toBe(md5);
      expect(candidate.head.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
      throw refusal;
    };
    await expect(store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20, check })).rejects.toBe(refusal);
    expect(await store.exists(key)).toBe(false);
    await store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20 });
    await expect(store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20, check: async () => { throw refusal; } })).rejects.toBe(refusal);
    expect(await store.exists(key)).toBe(true);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses bad prefixes and extensions before reading', async () => {
    const source = generated(1024);
    await expect(store.putContentAddressed(source.stream, { prefix: '../uploads', ext: '.png', maxBytes: 10 })).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.putContentAddressed(Buffer.from('x'), { prefix: 'uploads', ext: '/../x', maxBytes: 10 })).rejects.toBeInstanceOf(BlobKeyError);
    expect(source.produced()).toBe(0);
  });
});

describe('keys', () => {
  it.each(['../x', 'a//b', 'a/./b', 'a/../b', 'a\\b', '/abs', 'a/', '', 'a\u0000b', 'a\nb', 'tmp/x'])('refuses %j everywhere', async (key) => {
    await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.deletePrefix(key)).rejects.toBeInstanceOf(BlobKeyError);
  });

  it('takes %2e%2e as a literal name that stays inside the root', async () => {
    await store.put('%2e%2e/x', Buffer.from('literal'));
    const file = store.localPath('%2e%2e/x');
    expect(file).toBe(path.join(root, '%2e%2e', 'x'));
    expect(fs.readFileSync(file, 'utf8')).toBe('literal');
    expect(await collect(store.list(''))).toEqual(['%2e%2e/x']);
  });
});

/** The permission bits of `relative` under the root. */
const modeOf = (relative: string) => fs.statSync(path.join(root, relative)).mode & 0o777;

describe('file modes', () => {
  it('keeps blobs 0600 in folders 0700, whatever the umask', async () => {
    const umask = process.umask(0);
    try {
      await store.put('documents/a/b/page.svg', Buffer.from('<svg/>'));
      const { key } = await store.putContentAddressed(Readable.from([Buffer.from('原文')]), { prefix: 'documents', ext: '.pdf', maxBytes: 1024 });
      expect(modeOf('documents/a/b/page.svg')).toBe(0o600);
      expect(modeOf(key)).toBe(0o600);
      for (let folder = path.dirname(key); folder !== '.'; folder = path.dirname(folder)) expect(modeOf(folder), folder).toBe(0o700);
      expect([modeOf('documents/a'), modeOf('documents/a/b'), modeOf('tmp')]).toEqual([0o700, 0o700, 0o700]);
    } finally {
      process.umask(umask);
    }
  });

  it('narrows at open what an earlier version left readable by others, the root included', async () => {
    const old = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-old-blobs-'));
    try {
      // As the store wrote them before: files 0644 in folders 0755.
      for (const file of ['uploads/a/b/c/d/e/0123.png', 'documents/f/0/1/2/3/4567.pdf', 'documents/f/0/1/2/3/4567/1.svg']) {
        fs.mkdirSync(path.join(old, path.dirname(file)), { recursive: true, mode: 0o755 });
        fs.writeFileSync(path.join(old, file), 'x', { mode: 0o644 });
      }
      fs.writeFileSync(path.join(old, 'moredoc.db'), '', { mode: 0o600 });
      fs.chmodSync(old, 0o755);
      await LocalBlobStore.open(old);
      const modes = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        const line = `${path.relative(old, full)} ${(fs.statSync(full).mode & 0o777).toString(8)}`;
        return entry.isDirectory() ? [line, ...modes(full)] : [line];
      });
      const all = modes(old);
      expect(all.filter((line) => !/ (600|700)$/.test(line))).toEqual([]);
      expect(all).toContain('documents/f/0/1/2/3/4567/1.svg 600');
      expect(fs.statSync(old).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  });
});

describe('list and delete', () => {
  beforeEach(async () => {
    for (const key of ['a/1', 'a/b/2', 'ab/3', 'c']) await store.put(key, Buffer.from(key));
  });

  it('lists the keys under a folder prefix, never the temp folder', async () => {
    fs.writeFileSync(path.join(root, 'tmp', 'left-over.part'), 'x');
    expect(await collect(store.list('a'))).toEqual(['a/1', 'a/b/2']);
    expect(await collect(store.list('a/b'))).toEqual(['a/b/2']);
    expect(await collect(store.list('missing'))).toEqual([]);
    expect(await collect(store.list(''))).toEqual(['a/1', 'a/b/2', 'ab/3', 'c']);
  });

  it('deletes one blob, then a folder of them', async () => {
    expect(await store.delete('c')).toBe(true);
    expect(await store.delete('c')).toBe(false);
    expect(await store.delete('a/b')).toBe(false);
    expect(await store.get('c')).toBeNull();
    expect(await store.deletePrefix('a')).toBe(2);
    expect(await store.deletePrefix('ab/3')).toBe(0);
    expect(await collect(store.list(''))).toEqual(['ab/3']);
  });
});

it('removes temp files of a previous process when opened', async () => {
  fs.writeFileSync(path.join(root, 'tmp', 'crashed.part'), 'partial');
  await LocalBlobStore.open(root);
  expect(tempFiles()).toEqual([]);
});
