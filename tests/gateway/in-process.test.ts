// The gateway answers the embedded backend's calls in process (no socket), and a remote
// backend's over HTTP (BACKEND_URL): the same exchanges through both ways, in front of the same
// backend, must give the same statuses, headers and bodies, so that the two cannot drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync, gunzipSync } from 'node:zlib';
import { inProcessBackend } from '../../gateway/embedded-backend';
import { login, startBackend, type StartedBackend } from '../helpers/backend';
import { sameOrigin, send, startGateway, type Answer, type TestGateway } from './helpers';

let backend: StartedBackend;
let inProcess: TestGateway;
let remote: TestGateway;

beforeAll(async () => {
  backend = await startBackend({ env: { CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false' } });
  // Logged in once before, so that each way's login answers with a previous login in it.
  await login(backend.url, 'admin', backend.adminPassword);
  const embedded = inProcessBackend(backend.app);
  inProcess = await startGateway('', {}, { dispatcher: embedded.dispatcher });
  remote = await startGateway(backend.url);
});
afterAll(async () => {
  await inProcess?.close();
  await remote?.close();
  await backend?.close();
});

/** A PNG header of 1×1 pixel, padded: enough for the upload's checks. */
function png(seed: number): Buffer {
  const buf = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'latin1');
  buf.writeUInt32BE(1, 16);
  buf.writeUInt32BE(1, 20);
  buf[24] = 8;
  buf[25] = 2;
  buf[40] = seed;
  return buf;
}

function multipart(file: Buffer, name: string): { type: string; body: Buffer } {
  const boundary = 'parity-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]) };
}

/**
 * What may differ between two gateways: their own request id, the date, the origin (their
 * port), a fresh token, times and ids the backend makes per request.
 */
function comparable(answer: Answer, origin: string): { status: number; headers: Record<string, unknown>; body: string } {
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    // The length follows the body, whose times may have fewer digits one way (RFC 3339 drops trailing zeros).
    if (name === 'date' || name === 'x-request-id' || name === 'content-length') continue;
    headers[name] = name === 'set-cookie' ? String(value).replace(/^token=[^;]+/, 'token=<jwt>') : value;
  }
  const text = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body).toString('utf8') : answer.text;
  const length = answer.headers['content-length'];
  if (length !== undefined) headers['content-length'] = Number(length) === answer.body.length || answer.body.length === 0 ? 'the body' : length;
  return { status: answer.status, headers, body: text.replaceAll(origin, '<origin>').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>').replace(/"id":\d+/g, '"id":<n>') };
}

type Exchange = (url: string, session: { cookie: string }) => Promise<Answer>;

const exchanges: [string, Exchange][] = [
  ['settings', (url) => send(`${url}/api/v1/settings`)],
  ['settings, gzip', (url) => send(`${url}/api/v1/settings`, { headers: { 'accept-encoding': 'gzip' } })],
  ['HEAD of the settings', (url) => send(`${url}/api/v1/settings`, { method: 'HEAD' })],
  ['the document categories', (url) => send(`${url}/api/v1/category/list?type=0`)],
  ['the document list', (url) => send(`${url}/api/v1/document/list?page=1&size=10`)],
  ['a path the API does not have', (url) => send(`${url}/api/v1/no/such/call`)],
  ['a method the path does not take', (url) => send(`${url}/api/v1/settings`, { method: 'DELETE', headers: sameOrigin(url) })],
  ['a malformed JSON body', (url) => send(`${url}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' })],
  ['a wrong password', (url) => send(`${url}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'wrong-password' }) })],
  ['a login, whose token becomes the cookie', async (url, session) => {
    const answer = await send(`${url}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: backend.adminPassword }) });
    session.cookie = answer.setCookies[0]!.split(';', 1)[0]!;
    return answer;
  }],
  ['the current user from the cookie', (url, session) => send(`${url}/api/v1/user`, { headers: { cookie: session.cookie } })],
  ['a token the backend refuses, whose cookie goes', (url) => send(`${url}/api/v1/user`, { headers: { cookie: 'token=aaa.bbb.ccc' } })],
  ['an upload, streamed', (url, session) => {
    const form = multipart(png(7), 'parity.png');
    return send(`${url}/api/v1/upload/avatar`, { method: 'POST', headers: { ...sameOrigin(url), cookie: session.cookie, 'content-type': form.type }, body: form.body });
  }],
  ['an upload with a bad extension, refused before its body', (url, session) => {
    const form = multipart(png(8), 'parity.exe');
    return send(`${url}/api/v1/upload/avatar`, { method: 'POST', headers: { ...sameOrigin(url), cookie: session.cookie, 'content-type': form.type }, body: form.body });
  }],
  ['the uploaded file', async (url) => send(`${url}${uploadedPath}`)],
  ['an uploaded file that is not there', (url) => send(`${url}/uploads/0/0/0/0/0/00000000000000000000000000000000.png`)],
  ['a download link that is not one', (url) => send(`${url}/download/not-a-link`)],
  ['the sitemap', (url) => send(`${url}/sitemap.xml`)],
  ['a config write refused for a member of no admin group', (url) => send(`${url}/api/v1/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })],
  ['a gzip request body', (url) => send(`${url}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{}') })],
  ['the home page with its route data', (url) => send(`${url}/`, { headers: { 'accept-encoding': 'gzip' } })],
  ['the readiness check', (url) => send(`${url}/readyz`)],
];

let uploadedPath = '';

describe('the embedded backend in process and a backend over HTTP', () => {
  it('give the same answers, statuses, headers and errors', async () => {
    const sessions = { inProcess: { cookie: '' }, remote: { cookie: '' } };
    for (const [name, exchange] of exchanges) {
      const viaProcess = await exchange(inProcess.url, sessions.inProcess);
      const viaHttp = await exchange(remote.url, sessions.remote);
      if (name === 'an upload, streamed') {
        expect(viaProcess.status, viaProcess.text).toBe(200);
        uploadedPath = viaProcess.json<{ data: { path: string } }>().data.path;
      }
      expect(comparable(viaProcess, inProcess.url), name).toEqual(comparable(viaHttp, remote.url));
    }
    expect(sessions.inProcess.cookie).toMatch(/^token=/);
  });
});
