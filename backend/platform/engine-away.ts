import { setTimeout as sleep } from 'node:timers/promises';

// A process that starts while PostgreSQL or the S3 service is away (stopped, restarting, not up
// yet under compose) waits for it instead of exiting: a start that exits makes a crash loop of
// every instance and worker when the database restarts. What is wrong in the settings (a wrong
// password, no such bucket) still stops the start at once: no wait would mend it.

/** The engine a start could not reach. */
export type AwayEngine = 'database' | 'blobs';

/** A start met PostgreSQL or the bucket away; nothing of it stays open, and a later try may succeed. */
export class EngineAwayError extends Error {
  override name = 'EngineAwayError';
  constructor(
    readonly engine: AwayEngine,
    message: string,
  ) {
    super(message);
  }
}

/** The waits between two tries of a start whose engine is away: the last one repeats. */
export const START_RETRY_MS: readonly number[] = [1000, 2000, 5000];

/**
 * `start()` again, after START_RETRY_MS, for as long as it throws EngineAwayError (told to
 * `onAway` with the wait before the next try); any other error, or `signal`'s abort, ends it.
 */
export async function startWhenReachable<T>(
  start: () => Promise<T>,
  onAway: (error: EngineAwayError, retryMs: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof EngineAwayError)) throw error;
      const retryMs = START_RETRY_MS[Math.min(attempt, START_RETRY_MS.length - 1)]!;
      onAway(error, retryMs);
      await sleep(retryMs, undefined, signal ? { signal } : {});
    }
  }
}
