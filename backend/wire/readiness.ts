import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db';
import { DATABASE_UNAVAILABLE } from './error-handler';
import { ApiError, BLOB_STORE_UNAVAILABLE, unavailable } from './errors';

// `GET /readyz` (ours; MOREDOC has no such route): the backend answers and so do its database
// and, with S3_BUCKET, its bucket. The settings every page needs come from memory, so a backend
// whose PostgreSQL is away still answers them: readiness asks the database itself, one `SELECT 1`,
// and the bucket, one HeadBucket, both at once, and says 503 when either fails in any way (a
// server stopped or refusing connections) or does not come back in time (a server that stopped
// answering, a pool with no free connection). Nothing is cached: each probe costs one query and
// one request to the bucket (docs/decisions/050-readiness-asks-the-s3-bucket-too.md). The gateway's
// `/readyz` asks this route (docs/operations.md, "Health checks").
// A ready answer also tells the job queue's backlog (`jobs`: waiting, the oldest's wait, running,
// the processes running them): with every worker down this instance still serves, so it stays
// ready, but uploads wait 待转换 and the operator reading the probe sees the wait grow.

/** How long the database and the bucket have to answer: below the gateway's 2 s for the whole check. */
export const READY_PING_MS = 1_500;

export interface ReadinessChecks {
  db: Database;
  /** The bucket answers (S3BlobStore.checkBucket); absent for the files under DATA_DIR. */
  blobs?: (signal: AbortSignal) => Promise<void>;
  /** The job queue's backlog (jobBacklog of backend/platform/jobs/job-queue.ts), told in a ready answer. */
  jobs?: () => Promise<object>;
}

export function registerReadiness(app: FastifyInstance, checks: ReadinessChecks, timeoutMs = READY_PING_MS): void {
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer within ${timeoutMs} ms`);
        abort.abort(error);
        reject(error);
      }, timeoutMs);
    });
    // The database's verdict first: while it is away, that is the reason to give.
    let jobs: object | undefined;
    const database = Promise.race([sql`SELECT 1`.execute(checks.db), late]).then(
      async () => {
        // Past the ping: a backlog it could not read leaves the answer without it, still ready.
        if (checks.jobs) jobs = await Promise.race([checks.jobs(), late]).catch(() => undefined);
        return null;
      },
      (error: unknown) => Object.assign(unavailable(DATABASE_UNAVAILABLE), { cause: error }),
    );
    const bucket = checks.blobs
      ? Promise.race([checks.blobs(abort.signal), late]).then(
          () => null,
          // The store's own 503 (BlobStoreUnavailableError, with the SDK's reason), else one here.
          (error: unknown) =>
            error instanceof ApiError ? error : Object.assign(unavailable(BLOB_STORE_UNAVAILABLE), { cause: error }),
        )
      : null;
    try {
      // One warn line with the reason (the error handler's, for a 503 with a cause), no stack.
      const refusal = (await database) ?? (await bucket);
      if (refusal) throw refusal;
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    return jobs ? { status: 'ready', jobs } : { status: 'ready' };
  });
}
