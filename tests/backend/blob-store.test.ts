import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BlobEmptyError,
  BlobKeyError,
  BlobRangeError,
  BlobStoreUnavailableError,
  BlobTooLargeError,
  HEAD_BYTES,
  type BlobStore,
} from '../../backend/platform/blobs/blob-store';
import { CACHE_DEFAULTS, CachedBlobStore } from '../../backend/platform/blobs/cached-blob-store';
import { LocalBlobStore } from '../../backend/platform/blobs/local-blob-store';
import { BlobDigestError, S3BlobStore, type S3BlobStoreOptions } from '../../backend/platform/blobs/s3-blob-store';
import { DEFAULT_ENGINES_ONLY, onS3 } from '../helpers/engines';
import { startS3, type TestS3 } from '../helpers/s3';
import { freePort } from '../helpers/ports';

// The BlobStore contract through its public interface, on both stores: the local one on a
// real temporary folder, the S3 one on s3rver (each test under a key prefix of its own, with
// 5 MiB parts, so that the big blobs go up as multipart uploads), and the S3 one behind the
// in-process cache of small blobs the site puts in front of it.

const CHUNK = 64 * 1024;

/**
 * `total` pseudo-random bytes in 64 KiB chunks, produced on demand (an AES-CTR keystream keyed by
 * `seed`: the same bytes for the same seed, nothing a store could compress); `produced()` says how many so far.
 */
function generated(total: number, seed = 1) {
  let produced = 0;
  const key = crypto.createHash('sha256').update(String(seed)).digest().subarray(0, 16);
  const keystream = crypto.createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  const md5 = crypto.createHash('md5');
  const stream = new Readable({
    read() {
      if (produced >= total) {
        this.push(null);
        return;
      }
      const chunk = keystream.update(Buffer.alloc(Math.min(CHUNK, total - produced)));
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

async function bytesOf(store: BlobStore, key: string): Promise<Buffer> {
  const read = await store.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of read!.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all.sort();
}

/** One store under test, fresh for each test. */
interface Harness {
  store: BlobStore;
  /** What an unfinished or failed write left: temp files, temp objects, multipart uploads. */
  leftovers(): Promise<string[]>;
  /** Puts a temp file or object there as a process that died mid-write would have. */
  plantTemp(name: string): Promise<void>;
}

interface StoreKind {
  name: string;
  setUp(): Promise<Harness>;
  tearDown(): Promise<void>;
}

let root = '';
const local: StoreKind = {
  name: 'local',
  async setUp() {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-blobs-'));
    const store = await LocalBlobStore.open(root);
    return {
      store,
      leftovers: async () => fs.readdirSync(path.join(root, 'tmp')),
      plantTemp: async (name) => fs.writeFileSync(path.join(root, 'tmp', name), 'x'),
    };
  },
  async tearDown() {
    fs.rmSync(root, { recursive: true, force: true });
  },
};

let server: TestS3 | undefined;
let s3Store: S3BlobStore | undefined;
let testCount = 0;
const s3: StoreKind = {
  name: 's3',
  async setUp() {
    const prefix = `test-${++testCount}/`;
    const store = await S3BlobStore.open({ ...server!.options(prefix), partSize: 5 * 1024 * 1024 });
    s3Store = store;
    return {
      store,
      leftovers: async () => [...(await listTemp(store, prefix)), ...server!.pendingUploads()],
      plantTemp: async (name) => {
        await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: `${prefix}tmp/${name}`, Body: 'x' }));
      },
    };
  },
  async tearDown() {
    s3Store?.close();
  },
};

const s3Cached: StoreKind = {
  name: 'cached S3',
  async setUp() {
    const harness = await s3.setUp();
    return { ...harness, store: new CachedBlobStore(harness.store, { ...CACHE_DEFAULTS, maxBytes: 32 * 1024 * 1024 }) };
  },
  tearDown: () => s3.tearDown(),
};

/** The objects under the store's temporary folder. */
async function listTemp(store: S3BlobStore, prefix: string): Promise<string[]> {
  const page = await store.client.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: `${prefix}tmp/` }));
  return (page.Contents ?? []).map((o) => o.Key!);
}

const stores = [local, ...onS3(s3, s3Cached)];

beforeAll(async () => {
  if (stores.length > 1) server = await startS3();
});
afterAll(() => server?.stop());

describe.each(stores)('the $name store', (kind) => {
  let harness: Harness;
  let store: BlobStore;
  beforeEach(async () => {
    harness = await kind.setUp();
    store = harness.store;
  });
  afterEach(() => kind.tearDown());
  const leftovers = () => harness.leftovers();

  describe('put and get', () => {
    it('round-trips a 20 MB stream, hashing it on the way in', async () => {
      const source = generated(20 * 1024 * 1024);
      const put = await store.put('documents/big.bin', source.stream);
      const expectedMd5 = source.md5();
      expect(put).toEqual({ size: 20 * 1024 * 1024, md5: expectedMd5 });

      const read = await store.get('documents/big.bin');
      expect(read).toMatchObject({ size: 20 * 1024 * 1024, length: 20 * 1024 * 1024, mtime: expect.any(Date) });
      expect(await md5Of(read!.stream)).toEqual({ md5: expectedMd5, size: 20 * 1024 * 1024 });
      expect(await leftovers()).toEqual([]);
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
      expect(await md5Of(read!.stream)).toEqual({
        md5: crypto.createHash('md5').update(Buffer.alloc(1024, 'n')).digest('hex'),
        size: 1024,
      });
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
      await expect(store.put('x/too-big', Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(
        BlobTooLargeError,
      );
      expect(await store.exists('x/too-big')).toBe(false);
      expect(await leftovers()).toEqual([]);
    });

    it('keeps the old blob when a replacing stream fails part-way, and leaves nothing behind', async () => {
      await store.put('docs/original.pdf', Buffer.from('old'));
      const source = generated(12 * 1024 * 1024, 3);
      const failing = new PassThrough();
      source.stream.on('data', (chunk: Buffer) => {
        if (!failing.write(chunk)) source.stream.pause();
        if (source.produced() >= 11 * 1024 * 1024) failing.destroy(new Error('client went away'));
      });
      failing.on('drain', () => source.stream.resume());
      await expect(store.put('docs/original.pdf', failing)).rejects.toThrow('client went away');
      expect((await bytesOf(store, 'docs/original.pdf')).toString()).toBe('old');
      expect(await leftovers()).toEqual([]);
    });
  });

  describe('range reads', () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    beforeEach(async () => {
      await store.put('r/text', bytes);
      // Read whole once: a caching store serves the ranges below from memory.
      expect((await bytesOf(store, 'r/text')).equals(bytes)).toBe(true);
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

    it('reads a range across the parts of a multipart blob, and only that range', async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of generated(12 * 1024 * 1024, 5).stream) chunks.push(chunk as Buffer);
      await store.put('r/big.bin', Readable.from(chunks));
      const whole = Buffer.concat(chunks);
      // 5 MiB parts on S3: the range starts in the first part and ends in the second.
      const start = 5 * 1024 * 1024 - 1000;
      const read = await store.get('r/big.bin', { start, end: start + 99_999 });
      expect(read).toMatchObject({ size: whole.length, length: 100_000 });
      const got: Buffer[] = [];
      for await (const chunk of read!.stream) got.push(chunk as Buffer);
      expect(Buffer.concat(got).equals(whole.subarray(start, start + 100_000))).toBe(true);
    });

    it('refuses ranges outside the blob', async () => {
      await expect(store.get('r/text', { start: 20 })).rejects.toBeInstanceOf(BlobRangeError);
      await expect(store.get('r/text', { start: 5, end: 4 })).rejects.toBeInstanceOf(BlobRangeError);
      await expect(store.get('r/text', { start: -1 })).rejects.toBeInstanceOf(BlobRangeError);
      await store.put('r/empty', Buffer.alloc(0));
      expect((await bytesOf(store, 'r/empty')).length).toBe(0);
      await expect(store.get('r/empty', { start: 0 })).rejects.toBeInstanceOf(BlobRangeError);
      expect(await store.get('r/missing', { start: 0 })).toBeNull();
    });
  });

  describe('content addressing', () => {
    const image = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), crypto.randomBytes(HEAD_BYTES + 5000)]);
    const md5 = crypto.createHash('md5').update(image).digest('hex');
    const key = `uploads/${md5.slice(0, 5).split('').join('/')}/${md5}.png`;

    it('stores identical content once, under the uploads layout', async () => {
      const first = await store.putContentAddressed(Readable.from([image.subarray(0, 1000), image.subarray(1000)]), {
        prefix: 'uploads',
        ext: '.png',
        maxBytes: 1 << 20,
      });
      expect(first).toMatchObject({ key, md5, size: image.length, created: true });
      expect(first.head.equals(image.subarray(0, HEAD_BYTES))).toBe(true);
      const second = await store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20 });
      expect(second).toMatchObject({ key, md5, created: false });
      expect(await collect(store.list('uploads'))).toEqual([key]);
      expect((await bytesOf(store, key)).equals(image)).toBe(true);
      expect(await leftovers()).toEqual([]);
    });

    it('refuses past maxBytes at once, stops reading and leaves nothing behind', async () => {
      const total = 8 * 1024 * 1024;
      const source = generated(total, 2);
      const refused = store.putContentAddressed(source.stream, {
        prefix: 'uploads',
        ext: '.bin',
        maxBytes: 1024 * 1024,
      });
      await expect(refused).rejects.toBeInstanceOf(BlobTooLargeError);
      // Read up to the limit plus what the stream had buffered ahead, not the 8 MB.
      expect(source.produced()).toBeLessThan(2 * 1024 * 1024);
      expect(source.stream.destroyed).toBe(false);
      source.stream.destroy();
      expect(await leftovers()).toEqual([]);
      expect(await collect(store.list(''))).toEqual([]);
    });

    it('refuses past maxBytes after parts went up, and drops those parts', async () => {
      const source = generated(20 * 1024 * 1024, 4);
      const refused = store.putContentAddressed(source.stream, {
        prefix: 'uploads',
        ext: '.bin',
        maxBytes: 12 * 1024 * 1024,
      });
      await expect(refused).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(source.produced()).toBeLessThan(14 * 1024 * 1024);
      expect(source.stream.destroyed).toBe(false);
      source.stream.destroy();
      expect(await leftovers()).toEqual([]);
      expect(await collect(store.list(''))).toEqual([]);
    });

    it('refuses empty input', async () => {
      await expect(
        store.putContentAddressed(Readable.from([]), { prefix: 'uploads', ext: '.png', maxBytes: 10 }),
      ).rejects.toBeInstanceOf(BlobEmptyError);
      expect(await leftovers()).toEqual([]);
      expect(await collect(store.list(''))).toEqual([]);
    });

    it('lets check refuse the content before it is kept, without touching a stored copy', async () => {
      const refusal = new Error('not an image');
      const check = (candidate: { md5: string; head: Buffer }) => {
        expect(candidate.md5).toBe(md5);
        expect(candidate.head.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
        throw refusal;
      };
      await expect(
        store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20, check }),
      ).rejects.toBe(refusal);
      expect(await store.exists(key)).toBe(false);
      await store.putContentAddressed(image, { prefix: 'uploads', ext: '.png', maxBytes: 1 << 20 });
      await expect(
        store.putContentAddressed(image, {
          prefix: 'uploads',
          ext: '.png',
          maxBytes: 1 << 20,
          check: async () => {
            throw refusal;
          },
        }),
      ).rejects.toBe(refusal);
      expect(await store.exists(key)).toBe(true);
      expect(await leftovers()).toEqual([]);
    });

    it('refuses bad prefixes and extensions before reading', async () => {
      const source = generated(1024);
      await expect(
        store.putContentAddressed(source.stream, { prefix: '../uploads', ext: '.png', maxBytes: 10 }),
      ).rejects.toBeInstanceOf(BlobKeyError);
      await expect(
        store.putContentAddressed(Buffer.from('x'), { prefix: 'uploads', ext: '/../x', maxBytes: 10 }),
      ).rejects.toBeInstanceOf(BlobKeyError);
      expect(source.produced()).toBe(0);
    });
  });

  describe('keys', () => {
    it.each(['../x', 'a//b', 'a/./b', 'a/../b', 'a\\b', '/abs', 'a/', '', 'a\u0000b', 'a\nb', 'tmp/x'])(
      'refuses %j everywhere',
      async (key) => {
        await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(BlobKeyError);
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobKeyError);
        await expect(store.stat(key)).rejects.toBeInstanceOf(BlobKeyError);
        await expect(store.delete(key)).rejects.toBeInstanceOf(BlobKeyError);
        await expect(store.deletePrefix(key)).rejects.toBeInstanceOf(BlobKeyError);
      },
    );

    it('takes %2e%2e and other odd characters as literal names', async () => {
      for (const key of ['%2e%2e/x', 'a b/文档 (1)+#?.pdf']) {
        await store.put(key, Buffer.from(key));
        expect((await bytesOf(store, key)).toString()).toBe(key);
      }
      expect(await collect(store.list(''))).toEqual(['%2e%2e/x', 'a b/文档 (1)+#?.pdf']);
    });
  });

  describe('list and delete', () => {
    beforeEach(async () => {
      for (const key of ['a/1', 'a/b/2', 'ab/3', 'c']) await store.put(key, Buffer.from(key));
    });

    it('lists the keys under a folder prefix, never the temp folder', async () => {
      await harness.plantTemp('left-over.part');
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
});

describe('the local store alone', () => {
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-blobs-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The permission bits of `relative` under the root. */
  const modeOf = (relative: string) => fs.statSync(path.join(root, relative)).mode & 0o777;

  it('writes files at the path of their key, 0600 in folders 0700 whatever the umask', async () => {
    const umask = process.umask(0);
    try {
      const store = await LocalBlobStore.open(root);
      await store.put('documents/a/b/page.svg', Buffer.from('<svg/>'));
      const { key } = await store.putContentAddressed(Readable.from([Buffer.from('原文')]), {
        prefix: 'documents',
        ext: '.pdf',
        maxBytes: 1024,
      });
      expect(modeOf('documents/a/b/page.svg')).toBe(0o600);
      expect(modeOf(key)).toBe(0o600);
      for (let folder = path.dirname(key); folder !== '.'; folder = path.dirname(folder))
        expect(modeOf(folder), folder).toBe(0o700);
      expect([modeOf('documents/a'), modeOf('documents/a/b'), modeOf('tmp')]).toEqual([0o700, 0o700, 0o700]);
      await store.put('%2e%2e/x', Buffer.from('literal'));
      const file = store.localPath('%2e%2e/x');
      expect(file).toBe(path.join(root, '%2e%2e', 'x'));
      expect(fs.readFileSync(file, 'utf8')).toBe('literal');
    } finally {
      process.umask(umask);
    }
  });

  it('narrows at open what an earlier version left readable by others, the root included', async () => {
    const old = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-old-blobs-'));
    try {
      // As the store wrote them before: files 0644 in folders 0755.
      for (const file of [
        'uploads/a/b/c/d/e/0123.png',
        'documents/f/0/1/2/3/4567.pdf',
        'documents/f/0/1/2/3/4567/1.svg',
      ]) {
        fs.mkdirSync(path.join(old, path.dirname(file)), { recursive: true, mode: 0o755 });
        fs.writeFileSync(path.join(old, file), 'x', { mode: 0o644 });
      }
      fs.writeFileSync(path.join(old, 'moredoc.db'), '', { mode: 0o600 });
      fs.chmodSync(old, 0o755);
      await LocalBlobStore.open(old);
      const modes = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
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

  it('removes temp files of a previous process when opened', async () => {
    await LocalBlobStore.open(root);
    fs.writeFileSync(path.join(root, 'tmp', 'crashed.part'), 'partial');
    await LocalBlobStore.open(root);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });
});

describe.skipIf(DEFAULT_ENGINES_ONLY)('the S3 store alone', () => {
  let prefix = '';
  const opened: S3BlobStore[] = [];
  const open = async (extra: Partial<S3BlobStoreOptions> = {}) => {
    const store = await S3BlobStore.open({ ...server!.options(prefix), partSize: 5 * 1024 * 1024, ...extra });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    prefix = `alone-${++testCount}/`;
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
  });

  /**
   * Between the store and s3rver, a relay that can stop passing bytes either way: a hung server,
   * or a network cut that drops the packets of the connections the SDK keeps alive.
   */
  async function cuttableRelay() {
    const target = new URL(server!.endpoint);
    let cut = false;
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      }
      client.on('data', (chunk: Buffer) => void (cut || upstream.write(chunk)));
      upstream.on('data', (chunk: Buffer) => void (cut || client.write(chunk)));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    return {
      endpoint: `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
      cut: () => void (cut = true),
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => relay.close(resolve));
      },
    };
  }

  it('answers BlobStoreUnavailableError, not a wait without end, once the bucket stops answering', async () => {
    const relay = await cuttableRelay();
    try {
      const store = await open({ endpoint: relay.endpoint, requestTimeoutMs: 300 });
      await store.put('kept.txt', Readable.from([Buffer.from('kept')]));
      expect((await store.stat('kept.txt'))?.size).toBe(4);
      relay.cut();
      await expect(store.stat('kept.txt')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.get('kept.txt')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.put('new.txt', Readable.from([Buffer.from('new')]))).rejects.toBeInstanceOf(
        BlobStoreUnavailableError,
      );
    } finally {
      await relay.close();
    }
  });

  it('gives up a read (a page a reader waits on) after its own short time a try, not the time an upload has', async () => {
    const relay = await cuttableRelay();
    try {
      // An upload's try may take 10 minutes here: a read that waited as long would outlast the test.
      const store = await open({ endpoint: relay.endpoint, requestTimeoutMs: 600_000, readTimeoutMs: 300 });
      await store.put('documents/page-1.svg', Readable.from([Buffer.from('<svg/>')]));
      relay.cut();
      await expect(store.get('documents/page-1.svg')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.get('documents/page-1.svg', { start: 0, end: 1 })).rejects.toBeInstanceOf(
        BlobStoreUnavailableError,
      );
      await expect(store.stat('documents/page-1.svg')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.exists('documents/page-1.svg')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      await relay.close();
    }
  });

  it('stops at open with the setting at fault: no such bucket, unknown keys, no server', async () => {
    const check = (extra: Partial<S3BlobStoreOptions>) =>
      S3BlobStore.open({ ...server!.options(), ...extra }).then(
        () => null,
        (error: unknown) => error,
      );
    expect(await check({ bucket: 'no-such-bucket' })).toMatchObject({
      name: 'S3BucketCheckError',
      variable: 'S3_BUCKET',
      message: expect.stringContaining('no bucket "no-such-bucket"'),
    });
    expect(await check({ accessKeyId: 'WRONG', secretAccessKey: 'WRONG' })).toMatchObject({
      variable: 'S3_ACCESS_KEY_ID',
      message: expect.stringContaining('refused access'),
    });
    const closed = await freePort();
    expect(await check({ endpoint: `http://127.0.0.1:${closed}` })).toMatchObject({
      variable: 'S3_ENDPOINT',
      message: expect.stringContaining('cannot be reached'),
    });
  });

  it('lists and deletes a folder of more than 1,000 objects, which S3 answers a page at a time', async () => {
    const store = await open();
    const keys = Array.from({ length: 1001 }, (_, i) => `documents/many/${String(i).padStart(4, '0')}.svg`);
    await server!.plant(keys.map((key) => ({ key: `${prefix}${key}`, body: Buffer.from(key) })));
    expect(await collect(store.list('documents/many'))).toEqual(keys);
    expect(await store.deletePrefix('documents/many')).toBe(1001);
    expect(await collect(store.list('documents'))).toEqual([]);
  });

  it('keeps a known MD5 as metadata, also for a multipart upload, and abandons bytes that differ', async () => {
    const store = await open();
    const bytes = crypto.randomBytes(11 * 1024 * 1024);
    const md5 = crypto.createHash('md5').update(bytes).digest('hex');
    const inChunks = () =>
      Readable.from(Array.from({ length: 11 }, (_, i) => bytes.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024)));
    await store.put('documents/big.pdf', inChunks(), { md5 });
    expect(await store.digest('documents/big.pdf')).toEqual({ size: bytes.length, md5 });
    // A single-part upload's ETag is its MD5 already.
    await store.put('documents/small.pdf', Buffer.from('small'));
    expect(await store.digest('documents/small.pdf')).toEqual({
      size: 5,
      md5: crypto.createHash('md5').update('small').digest('hex'),
    });

    await expect(store.put('documents/other.pdf', inChunks(), { md5: '0'.repeat(32) })).rejects.toBeInstanceOf(
      BlobDigestError,
    );
    expect(await store.exists('documents/other.pdf')).toBe(false);
    expect(server!.pendingUploads()).toEqual([]);
  });

  it('removes temporary objects left long ago by a process that died, not those of running uploads', async () => {
    const store = await open();
    for (const name of ['old.part', 'new.part']) {
      await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: `${prefix}tmp/${name}`, Body: 'x' }));
    }
    server!.backdate(`${prefix}tmp/old.part`, new Date(Date.now() - 2 * 3600_000));
    await open();
    expect(await listTemp(store, prefix)).toEqual([`${prefix}tmp/new.part`]);
  });

  it('hands out presigned download URLs only when asked to', async () => {
    const plain = await open();
    expect(plain.presignedUrl).toBeUndefined();
    const store = await open({ presignedSeconds: 60 });
    await store.put('documents/报告.pdf', Buffer.from('%PDF-1.7'));
    const url = await store.presignedUrl!('documents/报告.pdf', {
      disposition: 'attachment; filename="report.pdf"',
      contentType: 'application/pdf',
    });
    expect(url.startsWith(server!.endpoint)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await res.text()).toBe('%PDF-1.7');
  });
});

// s3rver as tests/helpers/s3.ts runs it writes an object as S3 keeps it: a copy (npm run blobs:copy) that
// checks each object right after its upload once saw one short.
describe.skipIf(DEFAULT_ENGINES_ONLY)("the tests' S3 server", () => {
  let store: S3BlobStore;
  beforeEach(async () => {
    store = await S3BlobStore.open(server!.options(`server-${++testCount}/`));
  });
  afterEach(() => store.close());

  it('answers a PUT once the object is whole: a HEAD right after it sees every byte', async () => {
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = 0; i < 5; i += 1) {
          const bytes = crypto.randomBytes(512 * 1024 + lane * 1000 + i);
          const key = `uploads/whole-${lane}-${i}.bin`;
          // in 16 KiB chunks: many writes into the object's file
          const chunks = Array.from({ length: Math.ceil(bytes.length / 16384) }, (_, n) =>
            bytes.subarray(n * 16384, (n + 1) * 16384),
          );
          await store.put(key, Readable.from(chunks));
          expect(await store.digest(key)).toEqual({
            size: bytes.length,
            md5: crypto.createHash('md5').update(bytes).digest('hex'),
          });
        }
      }),
    );
  });

  it("keeps the previous object whole when a PUT's body is cut off, and leaves no part of the new one", async () => {
    const key = 'uploads/cut.bin';
    const previous = crypto.randomBytes(100 * 1024);
    await store.put(key, previous);
    const objectFile = server!.objectFile(`${store.prefix}${key}`);
    const url = await getSignedUrl(
      store.client,
      new PutObjectCommand({ Bucket: store.bucket, Key: `${store.prefix}${key}` }),
      {
        expiresIn: 60,
      },
    );
    const request = http.request(url, { method: 'PUT', headers: { 'content-length': String(2 * 1024 * 1024) } });
    request.on('error', () => {});
    try {
      request.write(crypto.randomBytes(1024 * 1024));
      // The server writes the new body somewhere: beside the object, or over it.
      await expect
        .poll(() => ({ partials: server!.partialFiles().length, object: fs.statSync(objectFile).size }))
        .not.toEqual({ partials: 0, object: previous.length });
    } finally {
      request.destroy();
    }
    await expect.poll(() => server!.partialFiles()).toEqual([]);
    expect(await store.digest(key)).toEqual({
      size: previous.length,
      md5: crypto.createHash('md5').update(previous).digest('hex'),
    });
    expect(await bytesOf(store, key)).toEqual(previous);
  });
});

describe.skipIf(DEFAULT_ENGINES_ONLY)('the cached S3 store alone', () => {
  const TTL = 10_000;
  let prefix = '';
  let clock = 0;
  const opened: S3BlobStore[] = [];
  /**
   * Two instances of the site on one bucket: `cached` as the site runs it, `other` (uncached) writing behind its back.
   */
  const instances = async (extra: { maxBytes?: number; maxBlobBytes?: number } = {}) => {
    const bare = await S3BlobStore.open({ ...server!.options(prefix) });
    const other = await S3BlobStore.open({ ...server!.options(prefix) });
    opened.push(bare, other);
    const cached = new CachedBlobStore(bare, {
      maxBytes: 1024 * 1024,
      maxBlobBytes: 64 * 1024,
      ttlMs: TTL,
      now: () => clock,
      ...extra,
    });
    return { cached, other };
  };
  const text = async (store: BlobStore, key: string) =>
    (await store.get(key)) && (await bytesOf(store, key)).toString();
  beforeEach(() => {
    prefix = `cached-${++testCount}/`;
    clock = 1_000_000;
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
  });

  it("serves another instance's rewrite of a page within the lifetime of an entry, never later", async () => {
    const { cached, other } = await instances();
    await other.put('documents/a/1.svg', Buffer.from('first conversion'));
    expect(await text(cached, 'documents/a/1.svg')).toBe('first conversion');
    const first = await cached.stat('documents/a/1.svg');
    // The document converted again on a worker: same key, new bytes.
    await other.put('documents/a/1.svg', Buffer.from('second conversion, longer'));
    clock += TTL - 1;
    expect(await text(cached, 'documents/a/1.svg')).toBe('first conversion');
    expect(await cached.stat('documents/a/1.svg')).toEqual(first);
    clock += 1;
    expect(await text(cached, 'documents/a/1.svg')).toBe('second conversion, longer');
    expect((await cached.stat('documents/a/1.svg'))?.size).toBe(25);
    // Removed by the other instance: gone here once the entry's lifetime is over.
    await other.delete('documents/a/1.svg');
    expect(await cached.exists('documents/a/1.svg')).toBe(true);
    clock += TTL;
    expect(await cached.get('documents/a/1.svg')).toBeNull();
    expect(await cached.stat('documents/a/1.svg')).toBeNull();
  });

  it('never serves a stale page on the instance that rewrote or removed it', async () => {
    const { cached } = await instances();
    await cached.put('documents/b/1.svg', Buffer.from('old page'));
    await cached.put('documents/b/2.svg', Buffer.from('old page 2'));
    expect(await text(cached, 'documents/b/1.svg')).toBe('old page');
    expect(await text(cached, 'documents/b/2.svg')).toBe('old page 2');
    await cached.put('documents/b/1.svg', Buffer.from('new page'));
    expect(await text(cached, 'documents/b/1.svg')).toBe('new page');
    await cached.delete('documents/b/1.svg');
    expect(await cached.get('documents/b/1.svg')).toBeNull();
    await cached.deletePrefix('documents/b');
    expect(await cached.get('documents/b/2.svg')).toBeNull();
    expect(await cached.stat('documents/b/2.svg')).toBeNull();
    expect(cached.cachedBytes).toBe(0);
  });

  it('serves ranges of a cached page as the store would, without asking the store', async () => {
    const { cached, other } = await instances();
    const page = crypto.randomBytes(40_000);
    await other.put('documents/c/1.png', page);
    expect((await bytesOf(cached, 'documents/c/1.png')).equals(page)).toBe(true);
    // Overwritten behind its back: what follows comes from memory, the cached bytes.
    await other.put('documents/c/1.png', Buffer.from('replaced'));
    for (const range of [
      { start: 0, end: 0 },
      { start: 100, end: 30_000 },
      { start: 39_990 },
      { start: 39_000, end: 99_999 },
    ]) {
      const read = await cached.get('documents/c/1.png', range);
      const end = Math.min(range.end ?? page.length - 1, page.length - 1);
      expect(read).toMatchObject({ size: page.length, length: end - range.start + 1 });
      const chunks: Buffer[] = [];
      for await (const chunk of read!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(page.subarray(range.start, end + 1))).toBe(true);
    }
    await expect(cached.get('documents/c/1.png', { start: 40_000 })).rejects.toBeInstanceOf(BlobRangeError);
  });

  it('keeps only small blobs, and at most maxBytes of them, least recently used out first', async () => {
    const { cached, other } = await instances({ maxBytes: 100_000, maxBlobBytes: 40_000 });
    const big = crypto.randomBytes(50_000);
    await other.put('documents/d/big.pdf', big);
    expect((await bytesOf(cached, 'documents/d/big.pdf')).equals(big)).toBe(true);
    expect(cached.cachedBytes).toBe(0);
    for (const n of [1, 2, 3]) await other.put(`documents/d/${n}.svg`, Buffer.alloc(30_000, n));
    for (const n of [1, 2, 3]) await bytesOf(cached, `documents/d/${n}.svg`);
    expect(cached.cachedBytes).toBe(90_000);
    await bytesOf(cached, 'documents/d/1.svg');
    await other.put('documents/d/4.svg', Buffer.alloc(30_000, 4));
    await bytesOf(cached, 'documents/d/4.svg');
    // 2 was the least recently used: dropped; 1, 3 and 4 stay.
    expect(cached.cachedBytes).toBe(90_000);
    for (const n of [1, 2, 3, 4]) await other.put(`documents/d/${n}.svg`, Buffer.from('rewritten'));
    expect((await bytesOf(cached, 'documents/d/2.svg')).toString()).toBe('rewritten');
    for (const n of [1, 3, 4])
      expect((await bytesOf(cached, `documents/d/${n}.svg`)).equals(Buffer.alloc(30_000, n))).toBe(true);
  });
});
