import { vi } from 'vitest';

/**
 * Runs `work` with this process's Date `ms` off the machine's clock (ahead, or behind when
 * negative), as on a machine whose clock drifted: a backend started in this process answers by
 * it, the database's clock does not move. Timers keep running.
 */
export async function withClockOff<T>(ms: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
