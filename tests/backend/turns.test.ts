// Requests start by turns of the event loop (backend/platform/turns.ts): the allowance of a turn,
// and the standalone backend's server (`npm run backend`), which a busy backend still accepts new
// connections on. The gateway's server: tests/gateway/turns.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBackend } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import { RequestTurns } from '../../backend/platform/turns';
import { MOST_ANSWERS_WAITED, NEWCOMERS, newcomersWaits, work } from '../helpers/connection-storm';

describe("the standalone backend's server", () => {
  it('answers a connection opened while 40 others keep it busy after a few dozen of their answers, not hundreds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'moredoc-turns-'));
    const app = await buildBackend(
      loadBackendConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'turns-admin-1', BACKEND_PORT: '0', LOG_LEVEL: 'silent' }),
      { passwordCost: 10 },
    );
    try {
      // A route of this test's own on the backend's server: 2 ms of work a request, and the count of answers.
      let answered = 0;
      app.get('/busy', async () => {
        work(2);
        answered += 1;
        return String(answered);
      });
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      const waits = await newcomersWaits(`${address}/busy`);
      expect(waits).toHaveLength(NEWCOMERS);
      expect(Math.max(...waits)).toBeLessThan(MOST_ANSWERS_WAITED);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
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
