// `npm run blobs:copy`: copies the files of DATA_DIR (uploads/, documents/) into the bucket
// that the S3_* variables describe, before a site moves its files to S3. Resumable: an
// object already in the bucket with the file's size and MD5 is skipped, so a run cut short
// is simply run again. Each object is verified after its upload (its ETag when it went up in
// one part, else the MD5 kept in its metadata). A progress line is updated in place on a
// terminal, else printed every --every files (default 100). Exit code 1 when any file failed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadBackendConfig } from '../backend/config';
import { LocalBlobStore } from '../backend/platform/blobs/local-blob-store';
import { S3BlobStore, S3BucketCheckError } from '../backend/platform/blobs/s3-blob-store';
import { commandName, commandOptions } from './command-options';

/** The folders of DATA_DIR that hold blobs (attachment/receive-file.ts); the database, secrets and sitemaps stay. */
const BLOB_FOLDERS = ['uploads', 'documents'];
/** Files copied at once. */
const CONCURRENCY = 4;

export interface CopyProgress {
  total: number;
  copied: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export interface CopyFailure {
  key: string;
  reason: string;
}

async function md5OfFile(file: string): Promise<{ md5: string; size: number }> {
  const hash = crypto.createHash('md5');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { md5: hash.digest('hex'), size };
}

/** Copies one file unless the bucket has it already; 'skipped' or the bytes uploaded. */
async function copyOne(source: LocalBlobStore, target: S3BlobStore, key: string): Promise<'skipped' | number> {
  const file = source.localPath(key);
  const local = await md5OfFile(file);
  const there = await target.digest(key);
  if (there && there.size === local.size && there.md5 === local.md5) return 'skipped';
  // The store checks the MD5 while streaming (a file changed meanwhile is not kept) and keeps it as metadata.
  await target.put(key, fs.createReadStream(file), { md5: local.md5 });
  const stored = await target.digest(key);
  if (!stored || stored.size !== local.size || stored.md5 !== local.md5) {
    throw new Error(
      `the bucket reports ${stored ? `${stored.size} bytes, MD5 ${stored.md5 ?? 'unknown'}` : 'no object'} after the upload of ${local.size} bytes, MD5 ${local.md5}`,
    );
  }
  return local.size;
}

/** Copies every blob of `source` under BLOB_FOLDERS into `target`; `onProgress` after each file. */
export async function copyBlobs(
  source: LocalBlobStore,
  target: S3BlobStore,
  opts: {
    onProgress?: (progress: CopyProgress) => void;
    onFailure?: (failure: CopyFailure) => void;
    stopped?: () => boolean;
  } = {},
): Promise<CopyProgress> {
  const keys: string[] = [];
  for (const folder of BLOB_FOLDERS) for await (const key of source.list(folder)) keys.push(key);
  keys.sort();
  const progress: CopyProgress = { total: keys.length, copied: 0, skipped: 0, failed: 0, bytes: 0 };
  let next = 0;
  const worker = async () => {
    while (next < keys.length && !opts.stopped?.()) {
      const key = keys[next++]!;
      try {
        const outcome = await copyOne(source, target, key);
        if (outcome === 'skipped') progress.skipped += 1;
        else {
          progress.copied += 1;
          progress.bytes += outcome;
        }
      } catch (error) {
        progress.failed += 1;
        opts.onFailure?.({ key, reason: error instanceof Error ? error.message : String(error) });
      }
      opts.onProgress?.(progress);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return progress;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function progressLine(p: CopyProgress): string {
  return `blobs:copy: ${p.copied + p.skipped + p.failed}/${p.total} files (copied ${p.copied}, already there ${p.skipped}, failed ${p.failed}), ${megabytes(p.bytes)} uploaded`;
}

const USAGE = `${commandName('blobs:copy', import.meta.url, true)} [--every N]  (DATA_DIR and the S3_* variables name the source and the bucket)`;

function parseEvery(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`--every must be a positive integer, got "${raw}"`);
  return value;
}

export async function main(env: Record<string, string | undefined>, argv: readonly string[]): Promise<number> {
  let target: S3BlobStore;
  let source: LocalBlobStore;
  let every: number;
  try {
    const options = commandOptions(argv, { every: { type: 'string' } }, USAGE);
    if (!options) return 0;
    every = parseEvery(options.every);
    const config = loadBackendConfig(env);
    if (!config.s3)
      throw new ConfigError(
        "S3_BUCKET must name the bucket to copy DATA_DIR's files into (with S3_ENDPOINT, S3_ACCESS_KEY_ID… as the site will use them)",
      );
    if (!fs.existsSync(config.dataDir)) throw new ConfigError(`DATA_DIR ${config.dataDir} does not exist`);
    // Not LocalBlobStore.open: that would clear the temp folder of a site that may still be running.
    source = new LocalBlobStore(config.dataDir);
    target = await S3BlobStore.open(config.s3);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof S3BucketCheckError) {
      process.stderr.write(`blobs:copy: Configuration error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

  const terminal = process.stdout.isTTY === true;
  let lastDrawn = 0;
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write('\nblobs:copy: stopping after the files under way (Ctrl-C again to quit at once)\n');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const result = await copyBlobs(source, target, {
      stopped: () => stopping,
      onFailure: ({ key, reason }) =>
        process.stderr.write(`${terminal ? '\n' : ''}blobs:copy: failed ${JSON.stringify(key)}: ${reason}\n`),
      onProgress: (p) => {
        const done = p.copied + p.skipped + p.failed;
        if (terminal) {
          if (Date.now() - lastDrawn < 100 && done < p.total) return;
          lastDrawn = Date.now();
          process.stdout.write(`\r\x1b[2K${progressLine(p)}`);
        } else if (done % every === 0 && done < p.total) {
          process.stdout.write(`${progressLine(p)}\n`);
        }
      },
    });
    if (terminal) process.stdout.write('\n');
    const done = result.copied + result.skipped + result.failed;
    const where = `s3://${target.bucket}/${target.prefix}`;
    process.stdout.write(
      `blobs:copy: ${done < result.total ? 'stopped' : 'done'}: ${progressLine(result).slice('blobs:copy: '.length)} into ${where}\n`,
    );
    if (result.failed > 0) return 1;
    return done < result.total ? 130 : 0;
  } finally {
    target.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.env, process.argv.slice(2));
}
