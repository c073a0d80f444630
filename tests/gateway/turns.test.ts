// What the gateway's server starts per turn of the event loop (gateway/turns.ts). Node accepts
// one new connection per turn, so a turn that does every busy connection's work keeps new
// connections waiting for many turns; the allowance keeps turns short and starts the requests
// beyond it in the order they came.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PageLane } from '../../gateway/page-lane';
import { RequestTurns } from '../../gateway/turns';

const run = promisify(execFile);
const STORM = fileURLToPath(new URL('./fixtures/connection-storm.mjs', import.meta.url));

/** Keeps the thread busy for `ms`, as a request's own work does. */
function work(ms: number): void {
  const started = performance.now();
  while (performance.now() - started < ms);
}

describe("the gateway's server", () => {
  it('answers a connection opened while 40 others keep it busy after a few dozen of their answers, not hundreds', async () => {
    let answered = 0;
    // The server the gateway makes (the lane in front, here with nothing kept): 2 ms of work a request.
    const server = new PageLane(1).serverFactory((_request: IncomingMessage, response: ServerResponse) => {
      work(2);
      answered += 1;
      response.end(String(answered));
    }, {});
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const { stdout } = await run(process.execPath, [STORM, `http://127.0.0.1:${port}/`, '40', '20'], {
        timeout: 60_000,
      });
      const waits = JSON.parse(stdout) as number[];
      expect(waits).toHaveLength(20);
      // Each of the 20 new connections is accepted in a turn of its own. With every busy
      // connection's request started in each turn, the last waited 20 turns of about 41 answers
      // (894 when measured); with short turns, about the requests queued before it (102–104).
      expect(Math.max(...waits)).toBeLessThan(400);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 90_000);
});

describe('the allowance of a turn', () => {
  it('starts every request at once while the turns are short', () => {
    const turns = new RequestTurns(5);
    const started: number[] = [];
    for (let i = 0; i < 20; i += 1) turns.admit(() => started.push(i));
    expect(started).toHaveLength(20);
    expect(turns.backlog).toBe(0);
  });

  it('holds back what a long turn would start, then starts it in later turns in the order it came', async () => {
    const turns = new RequestTurns(5);
    const started: number[] = [];
    for (let i = 0; i < 200; i += 1)
      turns.admit(() => {
        work(1);
        started.push(i);
      });
    // The first turn's allowance started some; the rest wait.
    expect(started.length).toBeLessThan(200);
    expect(turns.backlog).toBe(200 - started.length);
    const perTurn: number[] = [];
    while (turns.backlog > 0) {
      const before = started.length;
      await new Promise((resolve) => setImmediate(resolve));
      perTurn.push(started.length - before);
    }
    expect(started).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // 1 ms of work each and 5 ms a turn: the allowance came down to a few a turn.
    expect(turns.perTurn).toBeLessThanOrEqual(8);
    expect(Math.min(...perTurn.filter((n) => n > 0))).toBeLessThanOrEqual(8);
  });
});
