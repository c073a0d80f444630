import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { json, makeJwt, sameOrigin, startGateway, startStub, type Stub, type TestGateway } from './helpers';

const TOTAL = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;
// Loopback socket buffers on both hops (~11 MB measured here) plus stream buffers. Buffering
// the upload in the gateway would put all 50 MB in flight.
const MAX_IN_FLIGHT = 24 * 1024 * 1024;

let stub: Stub;
let gw: TestGateway;
let received = 0;
let receivedHash = '';

beforeAll(async () => {
  stub = await startStub(
    async (req, res) => {
      const hash = createHash('sha256');
      // A deliberately slow reader (~60 MB/s) so that back-pressure has to work.
      for await (const chunk of req) {
        received += (chunk as Buffer).length;
        hash.update(chunk as Buffer);
        if (received % (1024 * 1024) < (chunk as Buffer).length) await new Promise((r) => setTimeout(r, 15));
      }
      receivedHash = hash.digest('hex');
      json(res, 200, { received });
    },
    { streamingPaths: ['/api/v1/upload/document'] },
  );
  gw = await startGateway(stub.url, { upstreamTimeoutMs: 60_000 });
});
afterAll(async () => {
  await gw.close();
  await stub.close();
});

describe('uploads', () => {
  it('streams a 50 MB upload to the backend with bounded gateway memory', async () => {
    let sent = 0;
    let maxInFlight = 0;
    let maxHeapGrowth = 0;
    const sentHash = createHash('sha256');
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const pattern = Buffer.alloc(CHUNK);
    for (let i = 0; i < CHUNK; i++) pattern[i] = (i * 31) % 251;

    async function* body() {
      while (sent < TOTAL) {
        maxInFlight = Math.max(maxInFlight, sent - received);
        maxHeapGrowth = Math.max(maxHeapGrowth, process.memoryUsage().heapUsed - heapBefore);
        const chunk = Buffer.from(pattern);
        chunk.writeUInt32BE(sent / CHUNK, 0);
        sentHash.update(chunk);
        sent += chunk.length;
        yield chunk;
      }
    }

    const res = await request(`${gw.url}/api/v1/upload/document`, {
      method: 'POST',
      headers: sameOrigin(gw.url, {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(TOTAL),
        cookie: `token=${makeJwt()}`,
      }),
      body: Readable.from(body()),
    });
    const answer = (await res.body.json()) as { received: number };

    expect(res.statusCode).toBe(200);
    expect(answer.received).toBe(TOTAL);
    expect(receivedHash).toBe(sentHash.digest('hex'));
    expect(stub.requests.at(-1)?.headers.authorization).toMatch(/^Bearer /);
    expect(maxInFlight).toBeLessThan(MAX_IN_FLIGHT);
    console.info(
      `50 MB upload: max bytes in flight through the gateway ${(maxInFlight / 1048576).toFixed(1)} MB, ` +
        `max heap growth of the test process ${(maxHeapGrowth / 1048576).toFixed(1)} MB`,
    );
  }, 60_000);
});
