// The gateway's server starts requests by turns of the event loop (backend/platform/turns.ts,
// whose allowance tests/backend/turns.test.ts tests): Node accepts one new connection per turn,
// so a turn that does every busy connection's work keeps new connections waiting for many turns.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PageLane } from '../../gateway/page-lane';
import { MOST_ANSWERS_WAITED, NEWCOMERS, newcomersWaits, work } from '../helpers/connection-storm';

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
      const waits = await newcomersWaits(`http://127.0.0.1:${port}/`);
      expect(waits).toHaveLength(NEWCOMERS);
      expect(Math.max(...waits)).toBeLessThan(MOST_ANSWERS_WAITED);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 90_000);
});
