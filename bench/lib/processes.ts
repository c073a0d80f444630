// Child processes of the benchmark: each server runs in its own process (so its CPU time and
// memory are its own) and announces itself with one JSON line `{"ready": "<url>"}` on stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

export interface Started {
  name: string;
  url: string;
  /** the whole ready line (a process may announce more than its URL) */
  announced: Record<string, unknown>;
  pid: number;
  /** where its stdout and stderr go */
  logFile: string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Every child still running is killed when the benchmark exits, however it exits. */
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      running.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts a TypeScript entry under bench/processes with tsx and waits for its ready line.
 * `nodeOptions` go to node before the entry (e.g. `--cpu-prof`); `root`: another checkout's
 * entry (the code before a change).
 */
export async function startNodeProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  logDir: string,
  nodeOptions: string[] = [],
  root = REPO_ROOT,
): Promise<Started> {
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', join(root, 'bench/processes', entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.stderr!.pipe(log);
  const announced = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${READY_TIMEOUT_MS / 1000} s (log: ${logFile})`)),
      READY_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      try {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (typeof message.ready === 'string') {
          clearTimeout(timer);
          resolve(message);
        }
      } catch {
        // an ordinary log line
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready; log: ${logFile}`));
    });
  });
  return { name, url: announced.ready as string, announced, pid: child.pid!, logFile, stop: () => stopChild(child) };
}

/** The embedded backend in a process of its own, its data under `dir`, signing in without a captcha. */
export const startBackendProcess = (dir: string, adminPassword: string): Promise<Started> =>
  startNodeProcess(
    'backend',
    'backend.ts',
    { DATA_DIR: join(dir, 'data'), ADMIN_PASSWORD: adminPassword, CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false' },
    dir,
  );

/**
 * The site as `npm start` runs it (gateway and embedded backend in one process), its data under
 * `dir`, logging warnings only, signing in without a captcha; `env` adds to that or overrides it.
 */
export const startSiteProcess = (
  dir: string,
  adminPassword: string,
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
): Promise<Started> =>
  startNodeProcess(
    'site',
    'site.ts',
    {
      DATA_DIR: join(dir, 'data'),
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      ...env,
    },
    dir,
    nodeOptions,
  );

/** Resident set size and its peak, in bytes, of a process (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** A loopback port that was free a moment ago (for nginx, which cannot report the one it got). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The process and its children (nginx's master and its worker), from /proc. */
export async function withChildren(pid: number): Promise<number[]> {
  let children = '';
  try {
    children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    // gone, or not Linux
  }
  return [
    pid,
    ...children
      .split(' ')
      .filter((field) => field !== '')
      .map(Number),
  ];
}

/** CPU time (user + system) of processes so far, summed, in microseconds. */
export async function cpuTimeOfAll(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) total += await cpuTimeOf(pid);
  return total;
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc, clock ticks of 10 ms). */
export async function cpuTimeOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND;
}

// getconf CLK_TCK: 100 on every Linux Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;
