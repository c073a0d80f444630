import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { isLimitedSignIn } from '../../shared/sign-in-paths';
import { tooManyTriesMessage } from '../../shared/api-failure';
import type { Database } from '../db';
import { databaseNowText } from '../db/dialect';
import { tooManyRequests } from '../wire/errors';
import { addressKey } from '../../shared/address-key';

// The sign-in limit (SIGN_IN_LIMIT): so many tries per client address and endpoint of
// SIGN_IN_PATHS (and of SIGN_IN_READS: isLimitedSignIn) in a fixed window, counted in the `rate_limit` table by one upsert, so that
// every backend process sharing the database counts against the same number, by the database's
// clock (a window is a minute: a machine a minute off would start or end everyone's). The gateway
// keeps its own limit in front (gateway/plugins/rate-limit.ts), per gateway process.

export interface SignInLimitSetting {
  /** Tries in one window; 0 = no limit. */
  max: number;
  windowMs: number;
}

/** How often (in counted tries of a process) windows long over are removed. */
const SWEEP_EVERY = 200;

/**
 * Tries per key in fixed windows of `windowMs`, in the `rate_limit` table: the sign-in limit's, and the other limits
 * that must hold across processes (the search records of one address). Keys of one table, so its users keep to
 * windows of one length: a sweep drops the windows over by its own.
 */
export class WindowCounter {
  private counted = 0;

  constructor(
    private readonly db: Database,
    private readonly windowMs: number,
  ) {}

  /** Counts one try of `key`; the tries in its window so far and how long until the window ends. */
  async hit(key: string): Promise<{ hits: number; resetInMs: number }> {
    const windowOver = databaseNowText(this.db, -this.windowMs);
    // Reads and writes the row in one statement: concurrent tries each get their own count.
    const row = await this.db
      .insertInto('rate_limit')
      .values({ key, window_start: databaseNowText(this.db), hits: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`CASE WHEN rate_limit.window_start <= ${windowOver} THEN 1 ELSE rate_limit.hits + 1 END`,
          window_start: sql<string>`CASE WHEN rate_limit.window_start <= ${windowOver} THEN excluded.window_start ELSE rate_limit.window_start END`,
        }),
      )
      .returning(['hits', 'window_start', databaseNowText(this.db).as('now')])
      .executeTakeFirstOrThrow();
    this.counted += 1;
    if (this.counted % SWEEP_EVERY === 0)
      await this.db.deleteFrom('rate_limit').where('window_start', '<=', windowOver).execute();
    return {
      hits: Number(row.hits),
      resetInMs: Date.parse(row.window_start) + this.windowMs - Date.parse(row.now),
    };
  }
}

export class SignInLimit {
  private readonly counter: WindowCounter;

  constructor(
    db: Database,
    private readonly setting: SignInLimitSetting,
    /** CLIENT_IPV6_PREFIX: an IPv6 client counts by its prefix of so many bits (addressKey). */
    private readonly ipv6Prefix: number,
  ) {
    this.counter = new WindowCounter(db, setting.windowMs);
  }

  /** Refuses (429, code 8) the sign-in call (isLimitedSignIn) past the limit, before its handler runs. */
  register(app: FastifyInstance): void {
    if (this.setting.max <= 0) return;
    app.addHook('onRequest', async (request, reply) => {
      // The route as matched: `/api/v1/user/%6cogin` counts as the login.
      const route = request.routeOptions.url;
      if (route === undefined || !isLimitedSignIn(request.method, route)) return;
      const { hits, resetInMs } = await this.counter.hit(`${addressKey(request.ip, this.ipv6Prefix)}|${route}`);
      if (hits <= this.setting.max) return;
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      reply.header('retry-after', seconds);
      throw tooManyRequests(tooManyTriesMessage(seconds));
    });
  }
}
