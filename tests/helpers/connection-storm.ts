// A storm of connections against a server that starts its requests by turns of the event loop
// (backend/platform/turns.ts): 40 keep-alive connections keep it busy while 20 new ones open.
// The client runs in a process of its own (connection-storm-client.mjs), so that its work is not
// in the server's turns.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const CLIENT = fileURLToPath(new URL('./connection-storm-client.mjs', import.meta.url));

/** The busy connections, and the new ones opened while they keep the server busy. */
export const BUSY = 40;
export const NEWCOMERS = 20;

/**
 * Each new connection opened while the busy ones keep the server at `url` busy: how many answers
 * the server gave between its opening and its own first answer. The server answers each request
 * with the count of answers it has given.
 */
export async function newcomersWaits(url: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, url, String(BUSY), String(NEWCOMERS)], {
    timeout: 60_000,
  });
  return JSON.parse(stdout) as number[];
}

/**
 * The most a newcomer may wait, in answers. Each new connection is accepted in a turn of its own;
 * with every busy connection's request started in each turn, the last waited 20 turns of about
 * 41 answers (894 when measured), with short turns about the requests queued before it (102–104).
 */
export const MOST_ANSWERS_WAITED = 400;

/** Keeps the thread busy for `ms`, as a request's own work does. */
export function work(ms: number): void {
  const started = performance.now();
  while (performance.now() - started < ms);
}
