// A request body that stalls gets a 408 after BODY_TIMEOUT_MS and its connection closes,
// instead of holding the connection (and one to the backend) for ever. A JSON call's body must
// come whole within the bound; an upload's may take longer while its chunks keep coming.
// The tests wait out the bound and share nothing but their describe's servers: the describes and
// their tests run side by side, the file's time its longest test's.
import net from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startBackend, type StartedBackend } from '../helpers/backend';
import { slowRequest } from '../helpers/slow-client';
import { json, startGateway, startStub, type Stub, type TestGateway } from './helpers';

const TIMEOUT_MS = 1_500;
/** Long enough for the gateway's answer, short enough for a hung request to fail the test. */
const WAIT_MS = 10_000;
const TIMEOUT_BODY = {
  code: 408,
  message: '请求内容接收超时，请检查网络后重试',
  error: '请求内容接收超时，请检查网络后重试',
};
const UPLOAD_PATH = '/api/v1/upload/document';

const head = (path: string, type: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n${extra}\r\n`;

describe.concurrent('in front of a backend that waits for the body', () => {
  let stub: Stub;
  let gw: TestGateway;
  const aborted: string[] = [];
  beforeAll(async () => {
    stub = await startStub(
      async (req, res) => {
        let received = 0;
        try {
          for await (const chunk of req) received += (chunk as Buffer).length;
        } catch {
          aborted.push(req.url ?? '');
          return;
        }
        json(res, 200, { received });
      },
      { streamingPaths: ['/api/v1/user/login', UPLOAD_PATH] },
    );
    gw = await startGateway(stub.url, { bodyTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await gw.close();
    await stub.close();
  });

  it('answers a login whose body stalls with 408, closes the connection and lets go of the backend', async ({
    expect,
  }) => {
    const res = await slowRequest(
      gw.url,
      head('/api/v1/user/login', 'application/json', 100) + '{"username":',
      [],
      WAIT_MS,
    );
    expect(res).toMatchObject({ answered: true, status: 408, closed: true });
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual(TIMEOUT_BODY);
    await expect.poll(() => aborted).toContain('/api/v1/user/login');
  });

  it('times an upload between its chunks: a slow one that keeps coming passes, one that stops gets 408', async ({
    expect,
  }) => {
    // 8 chunks a fifth of the bound apart: longer in all than the bound, never a pause as long.
    const chunk = 'x'.repeat(1000);
    const every = TIMEOUT_MS / 5;
    const pieces = Array.from({ length: 8 }, (_, i) => ({ afterMs: (i + 1) * every, data: chunk }));
    const length = 8 * chunk.length;
    // Both at once: the stalled one (a byte short) then waits out the bound after the same pieces.
    const [slow, stalled] = await Promise.all([
      slowRequest(
        gw.url,
        head(UPLOAD_PATH, 'multipart/form-data; boundary=x', length, 'Connection: close\r\n'),
        pieces,
        WAIT_MS,
      ),
      slowRequest(gw.url, head(UPLOAD_PATH, 'multipart/form-data; boundary=x', length + 1), pieces, WAIT_MS),
    ]);
    expect(slow).toMatchObject({ answered: true, status: 200 });
    expect(JSON.parse(slow.body)).toEqual({ received: length });
    expect(stalled).toMatchObject({ answered: true, status: 408, closed: true });
    expect(JSON.parse(stalled.body)).toEqual(TIMEOUT_BODY);
  });
});

describe.concurrent('in front of a backend reading an upload, with a body timeout of an hour', () => {
  let stub: Stub;
  let gw: TestGateway;
  const reading: string[] = [];
  const abandoned: string[] = [];
  beforeAll(async () => {
    stub = await startStub(
      async (req, res) => {
        try {
          for await (const _chunk of req) if (!reading.includes(req.url ?? '')) reading.push(req.url ?? '');
        } catch {
          abandoned.push(req.url ?? '');
          return;
        }
        json(res, 200, {});
      },
      { streamingPaths: [UPLOAD_PATH] },
    );
    gw = await startGateway(stub.url, { bodyTimeoutMs: 3_600_000 });
  });
  afterAll(async () => {
    await gw.close();
    await stub.close();
  });

  it('lets go of the backend as soon as the client leaves in the middle of its upload, not at the body timeout', async ({
    expect,
  }) => {
    const { hostname, port } = new URL(gw.url);
    const client = net.connect(Number(port), hostname);
    client.on('error', () => undefined);
    client.write(head(UPLOAD_PATH, 'multipart/form-data; boundary=x', 100_000) + 'x'.repeat(1000));
    await expect.poll(() => reading).toContain(UPLOAD_PATH);
    client.destroy();
    await expect.poll(() => abandoned).toContain(UPLOAD_PATH);
  });
});

describe.concurrent('in front of the embedded backend', () => {
  let backend: StartedBackend;
  let gw: TestGateway;
  beforeAll(async () => {
    backend = await startBackend();
    gw = await startGateway(backend.url, { bodyTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await gw.close();
    await backend.close();
  });

  it('answers the login with Content-Length 100 and 12 bytes sent with 408', async ({ expect }) => {
    const res = await slowRequest(
      gw.url,
      head('/api/v1/user/login', 'application/json', 100) + '{"username":',
      [],
      WAIT_MS,
    );
    expect(res).toMatchObject({ answered: true, status: 408, closed: true });
    expect(JSON.parse(res.body)).toEqual(TIMEOUT_BODY);
  });
});
