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

/** The first wait between two tries of a start whose engine is away (START_RETRY_MS). */
export const START_RETRY_FIRST_MS = 1000;

/** The waits between two tries, as multiples of the first (1 s, 2 s, 5 s): the last one repeats. */
const RETRY_STEPS: readonly number[] = [1, 2, 5];

/**
 * `start()` again, after the waits (`firstRetryMs` times 1, 2, then 5), for as long as it throws
 * EngineAwayError (told to `onAway` with the wait before the next try); any other error, or
 * `signal`'s abort, ends it.
 */
export async function startWhenReachable<T>(
  start: () => Promise<T>,
  onAway: (error: EngineAwayError, retryMs: number) => void,
  options: { firstRetryMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const { firstRetryMs = START_RETRY_FIRST_MS, signal } = options;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof EngineAwayError)) throw error;
      const retryMs = firstRetryMs * RETRY_STEPS[Math.min(attempt, RETRY_STEPS.length - 1)]!;
      onAway(error, retryMs);
      await sleep(retryMs, undefined, signal ? { signal } : {});
    }
  }
}
