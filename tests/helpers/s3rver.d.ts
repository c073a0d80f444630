// The part of s3rver 3.7 (a Koa app, shipped without types) that tests/helpers/s3.ts uses.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';
  import type { Readable } from 'node:stream';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string }[];
  }

  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
  }

  /** What a PUT hands the store (s3rver's S3Object). */
  interface S3rverObject {
    bucket: string;
    key: string;
    content: Readable | Buffer;
    metadata: Record<string, string>;
  }

  /** s3rver's FilesystemStore, the parts tests/helpers/s3.ts replaces or calls. */
  export interface S3rverStore {
    /** The file of `key`'s `resource` (`object`, `metadata.json`…): `<key>._S3rver_<resource>` under the bucket's folder. */
    getResourcePath(bucket: string, key: string, resource: string): string;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Its objects' store; a multipart upload's completion writes the object through its putObject too. */
    store: S3rverStore;
    /** Koa's middleware list, in the order they run. */
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<AddressInfo>;
    /** The HTTP server while it runs. */
    httpServer?: Server;
    close(): Promise<void>;
  }
}
