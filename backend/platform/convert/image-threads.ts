// libvips, behind sharp, draws and encodes images on threads of its own ("libvips worker"),
// started from the libuv thread that runs a sharp call and so at that thread's nice value, not
// at the lowered one of the MuPDF thread that asked for the work (CONVERT_NICE). For scans and
// photos that is most of a conversion's CPU. A conversion thread lowers them to its own
// priority as it goes, so that this work too yields the cores to the event loop.
//
// They are the process's threads: other sharp work (avatars, banners) runs at that priority
// from then on, and it cannot be raised again without privileges. Linux only (/proc); a no-op
// elsewhere.
import { readFileSync, readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const TASKS = '/proc/self/task';

/**
 * Brings every libvips thread of the process down to `nice` (default: the calling thread's
 * own), leaving those already there or lower; how many it lowered.
 */
export function lowerImageThreads(nice = getPriority()): number {
  let tids: string[];
  try {
    tids = readdirSync(TASKS);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const name of tids) {
    const tid = Number(name);
    try {
      if (!readFileSync(`${TASKS}/${name}/comm`, 'latin1').startsWith('libvips')) continue;
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      lowered += 1;
    } catch {
      // the thread ended meanwhile
    }
  }
  return lowered;
}

/**
 * lowerImageThreads at most once every `intervalMs` (it reads a file per thread of the
 * process: a fraction of a millisecond, too much for every text page): for a caller that
 * does image work in a loop. libvips starts its threads when work comes and keeps them a
 * while, so a new one runs at most this long above the caller's priority. `last`: the
 * caller's image work is over (a task's end): lowered now, so that no thread started since
 * the last time stays above it until the next task.
 */
export function imageThreadLowerer(intervalMs = 100): (last?: boolean) => void {
  let lastTime = Number.NEGATIVE_INFINITY;
  return (last = false) => {
    const now = performance.now();
    if (!last && now - lastTime < intervalMs) return;
    lastTime = now;
    // Only a thread below the process's main thread's priority has anything to hand on.
    const own = getPriority();
    if (own > getPriority(process.pid)) lowerImageThreads(own);
  };
}
