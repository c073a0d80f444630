// Processes pinned to CPUs with taskset (util-linux): the servers measured on some CPUs and what
// measures them on others, as a deployment gives a server cores of its own (bench/inproc.ts,
// the search benchmark's --search-pin).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/**
 * Every thread of each process on `cpus` (a taskset list: `0`, `1`, `0-1`); threads and child
 * processes made later inherit it, children made before do not (pin them too).
 */
export function pinToCpus(pids: number[], cpus: string): void {
  for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** The CPUs the process's main thread may run on, as `taskset -c -p` lists them (`0`, `0,1`). */
export function cpusOf(pid: number): string {
  const answer = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  // "pid 123's current affinity list: 0,1"
  return answer.trim().split(': ').pop()!;
}

/** The distinct CPU lists of all the process's threads (Linux /proc), e.g. `['1']` when all are pinned alike. */
export function cpusOfThreads(pid: number): string[] {
  const lists = new Set<string>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
      if (list) lists.add(list);
    } catch {
      // the thread ended meanwhile
    }
  }
  return [...lists];
}
