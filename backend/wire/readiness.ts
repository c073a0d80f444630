import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db';
import { DATABASE_UNAVAILABLE } from './error-handler';
import { unavailable } from './errors';

// `GET /readyz` (ours; MOREDOC has no such route): the backend answers and so does its database.
// The settings every page needs come from memory, so a backend whose PostgreSQL is away still
// answers them: readiness asks the database itself, one `SELECT 1`, and says 503 when that fails
// in any way (a server stopped or refusing connections) or does not come back in time (a server
// that stopped answering, a pool with no free connection). The gateway's `/readyz` asks this route
// (docs/operations.md, "Health checks").

/** How long the database has to answer `SELECT 1`: below the gateway's 2 s for the whole check. */
export const READY_PING_MS = 1_500;

export function registerReadiness(app: FastifyInstance, db: Database, timeoutMs = READY_PING_MS): void {
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to SELECT 1 within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([sql`SELECT 1`.execute(db), late]);
    } catch (error) {
      // One warn line with the reason (the error handler's, for a 503 with a cause), no stack.
      const refusal = unavailable(DATABASE_UNAVAILABLE);
      refusal.cause = error;
      throw refusal;
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ready' };
  });
}
