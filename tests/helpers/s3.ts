import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver, { type S3rverStore } from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import type { S3BlobStoreOptions } from '../../backend/platform/blobs/s3-blob-store';

// An S3-compatible server for the tests: s3rver on a free loopback port, its objects in a
// temporary folder, one bucket made at start; stop() closes it and removes the folder.
// s3rver 3.7 answers AbortMultipartUpload with MethodNotAllowed: the server below adds it as
// S3 defines it (the upload's parts are dropped), so that a test can see a store abort. And its
// objects are written as S3 keeps them (`writeObjectsWhole`). Paging a listing past 1,000 objects
// needs Node's legacy OpenSSL provider, which vitest.config.ts gives the files that may start it.

/** s3rver's access key; it checks the key id, not V4 signatures. */
const KEY = 'S3RVER';
/** Where s3rver keeps the parts of unfinished multipart uploads, inside the bucket's folder. */
const UPLOADS_FOLDER = '._S3rver_uploads';
/** The resource name of an object being written (`<key>._S3rver_partial-<uuid>`): not `object`, so s3rver lists no such file. */
const PARTIAL = 'partial-';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The S3_* variables of a backend using this bucket. */
  env: Record<string, string>;
  /** S3BlobStore's options for this bucket, under `prefix` (`''` or ending with `/`). */
  options(prefix?: string): S3BlobStoreOptions;
  /** Multipart uploads neither completed nor aborted. */
  pendingUploads(): string[];
  /** The file on disk that holds an object's bytes. */
  objectFile(objectKey: string): string;
  /** Files of objects being written (tests/helpers/s3.ts writes each beside its object, then renames it). */
  partialFiles(): string[];
  /** Sets an object's time as s3rver reports it (its file's mtime), to play a file left long ago. */
  backdate(objectKey: string, when: Date): void;
  /** Every object key in the bucket (s3rver's own folders left out). */
  objectKeys(): string[];
  /** Stores objects straight through s3rver's store, without a request each (many objects, quickly). */
  plant(objects: { key: string; body: Buffer }[]): Promise<void>;
  /** Stops the server and keeps its objects; `resume` serves them again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(opts: { bucket?: string } = {}): Promise<TestS3> {
  const bucket = opts.bucket ?? 'moredoc-test';
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'moredoc-s3-'));
  const serve = async (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      vhostBuckets: false,
      configureBuckets: [{ name: bucket }],
    });
    writeObjectsWhole(server.store);
    server.middleware.unshift(async (ctx, next) => {
      const uploadId = ctx.query.uploadId;
      if (ctx.method !== 'DELETE' || typeof uploadId !== 'string') return next();
      const [, bucketName = ''] = ctx.path.split('/');
      if (!/^[0-9a-f]+$/.test(uploadId) || !/^[\w.-]+$/.test(bucketName)) {
        ctx.status = 400;
        return;
      }
      await fsp.rm(path.join(directory, bucketName, UPLOADS_FOLDER, uploadId), { recursive: true, force: true });
      ctx.status = 204;
    });
    return { server, port: (await server.run()).port };
  };
  const objectFile = (objectKey: string) => path.join(directory, bucket, ...`${objectKey}._S3rver_object`.split('/'));
  let { server, port } = await serve(0);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    options: (prefix = '') => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: KEY,
      secretAccessKey: KEY,
      forcePathStyle: true,
      prefix,
    }),
    pendingUploads: () => {
      const uploads = path.join(directory, bucket, UPLOADS_FOLDER);
      return fs.existsSync(uploads) ? fs.readdirSync(uploads) : [];
    },
    objectFile,
    partialFiles: () =>
      (fs.readdirSync(path.join(directory, bucket), { recursive: true }) as string[]).filter((name) =>
        name.includes(`._S3rver_${PARTIAL}`),
      ),
    backdate: (objectKey, when) => fs.utimesSync(objectFile(objectKey), when, when),
    objectKeys: () => {
      const root = path.join(directory, bucket);
      return (fs.readdirSync(root, { recursive: true }) as string[])
        .filter((name) => name.endsWith('._S3rver_object') && !name.startsWith(UPLOADS_FOLDER))
        .map((name) => name.slice(0, -'._S3rver_object'.length))
        .sort();
    },
    plant: async (objects) => {
      await Promise.all(
        objects.map(({ key, body }) =>
          server.store.putObject({
            bucket,
            key,
            content: body,
            metadata: { 'content-type': 'application/octet-stream' },
          }),
        ),
      );
    },
    async pause() {
      const closed = server.close();
      // Requests under way are cut too, as when the service goes away.
      server.httpServer?.closeAllConnections();
      await closed;
    },
    async resume() {
      ({ server, port } = await serve(port));
    },
    async stop() {
      await server.close();
      await fsp.rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Makes s3rver's store write an object (a PUT, a multipart upload's completion) as S3 does: readable
 * whole once answered, never in part. s3rver 3.7 stops waiting for the object's file once it has
 * read the body (up to 80 kB seen still on their way into the file), writes the metadata and
 * answers, so a HEAD right after may see it short; it writes over the object in place, so a body cut
 * off leaves a part where the previous object was; and a body that fails is never answered. Here
 * the body goes to a file of its own, renamed over the object once written; a body that fails
 * leaves the previous object and nothing else.
 */
function writeObjectsWhole(store: S3rverStore): void {
  store.putObject = async (object) => {
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    const partial = store.getResourcePath(object.bucket, object.key, `${PARTIAL}${randomUUID()}`);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    try {
      await pipeline(
        Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            md5.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        fs.createWriteStream(partial),
      );
      await fsp.rename(partial, file);
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/** One S3 server for a test file, started in `beforeAll` and stopped in `afterAll`. */
export function useS3(opts: { bucket?: string } = {}): { readonly s3: TestS3 } {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = await startS3(opts);
  });
  afterAll(() => s3?.stop());
  return {
    get s3() {
      if (!s3) throw new Error('useS3: the server starts in beforeAll; use it inside hooks and tests');
      return s3;
    },
  };
}
