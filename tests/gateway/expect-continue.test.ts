// Uploads sent with `Expect: 100-continue` (curl and libcurl send it for every body over
// 1 MiB): the client gets its 100, the body streams to the backend, and the backend's own
// answer comes back, never a 502 (issue 18 §2.2). An upload over the size limit of the
// settings, and a request the gateway refuses, get their answer instead of the 100: the body
// is never sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login, startBackend, type StartedBackend } from '../helpers/backend';
import { json, makeJwt, startGateway, startStub, type Stub, type TestGateway } from './helpers';

const UPLOAD_PATH = '/api/v1/upload/document';
const hasCurl = spawnSync('curl', ['--version']).status === 0;

interface Reply {
  status: number;
  body: string;
  gotContinue: boolean;
  connection: string | undefined;
}

/** Node's client with `Expect: 100-continue`: it sends the body only once the 100 has come. */
function postExpectingContinue(url: string, body: Buffer, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let gotContinue = false;
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, expect: '100-continue', 'content-length': String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            gotContinue,
            connection: res.headers.connection,
          }),
        );
      },
    );
    req.on('continue', () => {
      gotContinue = true;
      req.end(body);
    });
    req.on('error', reject);
  });
}

/** curl's own upload; `-v` shows the request headers it sent on stderr. */
function curl(args: string[]): Promise<{ status: number; body: string; sent: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-sS', '-v', '-w', '\n%{http_code}', ...args],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        const cut = stdout.lastIndexOf('\n');
        resolve({ status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut), sent: stderr });
      },
    );
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-expect-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('to a backend that takes the body', () => {
  let stub: Stub;
  let gw: TestGateway;
  beforeAll(async () => {
    stub = await startStub(
      async (req, res) => {
        const hash = createHash('sha256');
        let received = 0;
        for await (const chunk of req) {
          received += (chunk as Buffer).length;
          hash.update(chunk as Buffer);
        }
        json(res, 200, { received, sha256: hash.digest('hex') });
      },
      { streamingPaths: [UPLOAD_PATH, '/api/v1/user/profile'] },
    );
    gw = await startGateway(stub.url, { upstreamTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await gw.close();
    await stub.close();
  });

  it('answers 100 Continue, streams the body on and drops the Expect header', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 7);
    const res = await postExpectingContinue(`${gw.url}${UPLOAD_PATH}`, body, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(res.gotContinue).toBe(true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      received: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(stub.requests.at(-1)?.headers.expect).toBeUndefined();
  });

  it('does the same for a JSON call', async () => {
    const body = Buffer.from(JSON.stringify({ signature: '签名'.repeat(100_000) }));
    const res = await postExpectingContinue(`${gw.url}/api/v1/user/profile`, body, {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ received: body.length });
  });

  it.skipIf(!hasCurl)(
    'takes a 60 MB curl upload through to the backend',
    async () => {
      const file = join(dir, 'big.bin');
      await writeFile(file, '');
      await truncate(file, 60 * 1024 * 1024);
      const res = await curl([
        '-H',
        'content-type: multipart/form-data; boundary=x',
        '--data-binary',
        `@${file}`,
        `${gw.url}${UPLOAD_PATH}`,
      ]);
      expect(res.sent).toMatch(/^> Expect: 100-continue/im);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ received: 60 * 1024 * 1024 });
    },
    60_000,
  );
});

describe('over the upload limit of the settings', () => {
  let stub: Stub;
  let gw: TestGateway;
  beforeAll(async () => {
    stub = await startStub(
      async (req, res) => {
        if (req.url === '/api/v1/settings') return json(res, 200, { security: { max_document_size: 1 } });
        let received = 0;
        for await (const chunk of req) received += (chunk as Buffer).length;
        json(res, 200, { received });
      },
      { streamingPaths: [UPLOAD_PATH] },
    );
    gw = await startGateway(stub.url);
  });
  afterAll(async () => {
    await gw.close();
    await stub.close();
  });
  const uploadsSeen = () => stub.requests.filter((r) => r.url === UPLOAD_PATH).length;
  const MULTIPART = { 'content-type': 'multipart/form-data; boundary=x' };

  it('answers 413 from the headers alone, without a 100, and closes the connection', async () => {
    const res = await postExpectingContinue(`${gw.url}${UPLOAD_PATH}`, Buffer.alloc(2 * 1024 * 1024), MULTIPART);
    expect(res).toMatchObject({ status: 413, gotContinue: false, connection: 'close' });
    expect(JSON.parse(res.body)).toEqual({
      code: 413,
      message: '文件大小超出限制（最大 1 MB）',
      error: '文件大小超出限制（最大 1 MB）',
    });
    expect(uploadsSeen()).toBe(0);
  });

  it('lets the file up to the limit (and its multipart envelope) through with its 100', async () => {
    const body = Buffer.alloc(1024 * 1024 + 1000, 1);
    const res = await postExpectingContinue(`${gw.url}${UPLOAD_PATH}`, body, MULTIPART);
    expect(res).toMatchObject({ status: 200, gotContinue: true });
    expect(JSON.parse(res.body)).toEqual({ received: body.length });
  });

  it('sends a refusal of its own checks instead of the 100', async () => {
    const before = uploadsSeen();
    const res = await postExpectingContinue(`${gw.url}${UPLOAD_PATH}`, Buffer.alloc(10), {
      ...MULTIPART,
      cookie: `token=${makeJwt()}`,
      'sec-fetch-site': 'cross-site',
    });
    expect(res).toMatchObject({ status: 403, gotContinue: false });
    const notMultipart = await postExpectingContinue(`${gw.url}${UPLOAD_PATH}`, Buffer.alloc(10), {
      'content-type': 'text/plain',
    });
    expect(notMultipart).toMatchObject({ status: 415, gotContinue: false });
    expect(uploadsSeen()).toBe(before);
  });
});

describe.skipIf(!hasCurl)('to the embedded backend', () => {
  let backend: StartedBackend;
  let gw: TestGateway;
  beforeAll(async () => {
    backend = await startBackend();
    gw = await startGateway(backend.url, { upstreamTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await gw.close();
    await backend.close();
  });

  it('refuses a 60 MB curl upload over the limit from its headers: 413, and curl never gets a 100', async () => {
    const token = await login(backend.url, 'admin', backend.adminPassword);
    const file = join(dir, 'big.png');
    await writeFile(file, '');
    await truncate(file, 60 * 1024 * 1024);
    const res = await curl([
      '-H',
      `authorization: Bearer ${token}`,
      '-F',
      `file=@${file};type=image/png`,
      `${gw.url}/api/v1/upload/avatar`,
    ]);
    expect(res.sent).toMatch(/^> Expect: 100-continue/im);
    expect(res.sent).not.toMatch(/^< HTTP\/1\.1 100/im);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 413, message: '文件大小超出限制（最大 50 MB）' });
  }, 60_000);
});
