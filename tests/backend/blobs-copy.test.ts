import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { S3BlobStore } from '../../backend/platform/blobs/s3-blob-store';
import { useS3 } from '../helpers/s3';

// The blobs' copy as an operator runs it, on a DATA_DIR with uploads, documents (one big enough for
// a multipart upload) and the database and secrets beside them, into s3rver. It runs the production
// bundle (`node dist/server/scripts/blobs-copy.mjs`, as the image does): `npm run blobs:copy` runs
// the same main from source through tsx's loader, which costs about 1.5 cpu-s a start for nothing
// more (its usage, named as the npm script, is command-options.test.ts's).

const server = useS3();
/** The command: node and the build's bundle of scripts/blobs-copy.ts. */
const COPY = [process.execPath, path.join(inject('serverBundles'), 'scripts/blobs-copy.mjs')] as const;
let dataDir: string;
let prefixCount = 0;
let prefix: string;
/** key → MD5 of the blobs written into DATA_DIR */
let blobs: Map<string, string>;

const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');
const sharded = (folder: string, hash: string, ext: string) =>
  `${folder}/${hash.slice(0, 5).split('').join('/')}/${hash}${ext}`;

function writeBlob(key: string, bytes: Buffer): void {
  const file = path.join(dataDir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  blobs.set(key, md5(bytes));
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-copy-'));
  prefix = `site-${++prefixCount}`;
  blobs = new Map();
  for (let i = 0; i < 40; i += 1) {
    const image = crypto.randomBytes(20_000 + i);
    writeBlob(sharded('uploads', md5(image), '.png'), image);
  }
  const original = crypto.randomBytes(9 * 1024 * 1024);
  const hash = md5(original);
  writeBlob(sharded('documents', hash, '.pdf'), original);
  writeBlob(`${sharded('documents', hash, '')}/1.gzip.svg`, crypto.randomBytes(3000));
  // Not blobs: never copied.
  fs.writeFileSync(path.join(dataDir, 'moredoc.db'), 'database');
  fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'secret');
  fs.mkdirSync(path.join(dataDir, 'sitemap'));
  fs.writeFileSync(path.join(dataDir, 'sitemap', 'sitemap.xml'), '<sitemapindex/>');
  fs.mkdirSync(path.join(dataDir, 'tmp'));
  fs.writeFileSync(path.join(dataDir, 'tmp', 'upload.part'), 'partial');
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function copy(args: string[] = []): Run {
  const child = spawn(COPY[0], [COPY[1], ...args], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...server.s3.env, S3_PREFIX: prefix },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** What the bucket holds under the prefix: key → MD5 as S3 reports it (ETag or metadata). */
async function bucket(): Promise<Map<string, string | null>> {
  const store = new S3BlobStore(server.s3.options(`${prefix}/`));
  try {
    const found = new Map<string, string | null>();
    for await (const key of store.list('')) found.set(key, (await store.digest(key))?.md5 ?? null);
    return found;
  } finally {
    store.close();
  }
}

describe('npm run blobs:copy', () => {
  it('copies every blob of DATA_DIR, verified, and nothing else; a wrong copy already there is replaced', async () => {
    const [someKey] = [...blobs.keys()];
    const store = new S3BlobStore(server.s3.options(`${prefix}/`));
    const sameSize = crypto.randomBytes(fs.statSync(path.join(dataDir, someKey!)).size);
    await store.client.send(
      new PutObjectCommand({ Bucket: store.bucket, Key: `${prefix}/${someKey}`, Body: sameSize }),
    );
    store.close();

    const run = copy(['--every', '10']);
    expect(await run.exited, run.stderr()).toEqual({ code: 0, signal: null });
    const lines = run.stdout().trim().split('\n');
    expect(lines.slice(0, 4)).toEqual(
      [10, 20, 30, 40].map((n) =>
        expect.stringMatching(
          new RegExp(`^blobs:copy: ${n}/42 files \\(copied \\d+, already there 0, failed 0\\), [\\d.]+ MB uploaded$`),
        ),
      ),
    );
    expect(lines.at(-1)).toMatch(
      /^blobs:copy: done: 42\/42 files \(copied 42, already there 0, failed 0\), 9\.\d MB uploaded into s3:\/\/moredoc-test\/site-\d+\/$/,
    );
    expect(run.stderr()).not.toContain('failed');
    expect(Object.fromEntries(await bucket())).toEqual(Object.fromEntries(blobs));
  });

  it('resumes after an interruption, skipping what is already there', { timeout: 90_000 }, async () => {
    const first = copy(['--every', '1']);
    await new Promise<void>((resolve) => {
      const check = () => {
        if (/^blobs:copy: 5\/42 /m.test(first.stdout())) {
          first.child.kill('SIGKILL');
          resolve();
        }
      };
      first.child.stdout!.on('data', check);
    });
    expect((await first.exited).signal).toBe('SIGKILL');
    const partial = await bucket();
    expect(partial.size).toBeGreaterThanOrEqual(5);
    expect(partial.size).toBeLessThan(42);

    const second = copy();
    expect(await second.exited, second.stderr()).toEqual({ code: 0, signal: null });
    const summary = /done: 42\/42 files \(copied (\d+), already there (\d+), failed 0\)/.exec(second.stdout());
    expect(summary).not.toBeNull();
    expect(Number(summary![2])).toBeGreaterThanOrEqual(partial.size - 4);
    expect(Number(summary![1]) + Number(summary![2])).toBe(42);
    expect(Object.fromEntries(await bucket())).toEqual(Object.fromEntries(blobs));

    const third = copy();
    expect(await third.exited, third.stderr()).toEqual({ code: 0, signal: null });
    expect(third.stdout()).toContain('done: 42/42 files (copied 0, already there 42, failed 0), 0.0 MB uploaded');
  });

  it('updates one progress line in place on a terminal', async () => {
    // script(1) (util-linux) gives the command a pseudo-terminal and copies what it shows.
    const command = COPY.map((part) => JSON.stringify(part)).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...server.s3.env, S3_PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const redraws = screen.split('\r\x1b[2K').slice(1);
    expect(redraws.length).toBeGreaterThanOrEqual(1);
    expect(redraws.at(-1)).toMatch(
      /^blobs:copy: 42\/42 files \(copied 42, already there 0, failed 0\), 9\.\d MB uploaded\r?\nblobs:copy: done: 42\/42/,
    );
    // The redraws on one line and the closing line, no line per file (the SDK's warning on Node 20 may come before).
    expect(screen.split('\n').filter((line) => line.includes('blobs:copy:'))).toHaveLength(2);
  });

  it('goes on past a file it cannot copy, names it, and exits with 1', async () => {
    fs.writeFileSync(path.join(dataDir, 'uploads', 'bad\nname.png'), 'x');
    const run = copy();
    expect((await run.exited).code).toBe(1);
    expect(run.stderr()).toContain('blobs:copy: failed "uploads/bad\\nname.png": invalid blob key');
    expect(run.stdout()).toContain('done: 43/43 files (copied 42, already there 0, failed 1)');
    expect(Object.fromEntries(await bucket())).toEqual(Object.fromEntries(blobs));
  });

  it('refuses to start without S3_BUCKET, or with a bucket that does not answer', async () => {
    const noBucket = spawn(COPY[0], [COPY[1]], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    noBucket.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    expect(await new Promise((resolve) => noBucket.on('exit', resolve))).toBe(1);
    expect(err).toContain('blobs:copy: Configuration error: S3_BUCKET must name the bucket');

    const wrong = spawn(COPY[0], [COPY[1]], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...server.s3.env, S3_BUCKET: 'no-such-bucket' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    err = '';
    wrong.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    expect(await new Promise((resolve) => wrong.on('exit', resolve))).toBe(1);
    expect(err).toMatch(
      /blobs:copy: Configuration error: S3_BUCKET: there is no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+\n$/,
    );
  });
});
