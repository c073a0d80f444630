// The gateway answers the embedded backend's calls in process (no socket), and a remote
// backend's over HTTP (BACKEND_URL): the same exchanges through both ways, in front of the same
// backend, must give the same statuses, headers and bodies, so that the two cannot drift. Both
// blob stores (DATA_DIR and S3); the server-postgres project runs it again on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync, gunzipSync } from 'node:zlib';
import { inProcessBackend } from '../../gateway/embedded-backend';
import { login, startBackend, type StartedBackend } from '../helpers/backend';
import { createDocument, waitForStatus, type CreatedDocument } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { onS3 } from '../helpers/engines';
import { pngHead } from '../helpers/images';
import { startS3, type TestS3 } from '../helpers/s3';
import { sameOrigin, send, startGateway, type Answer, type TestGateway } from './helpers';

function multipart(file: Buffer, name: string): { type: string; body: Buffer } {
  const boundary = 'parity-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/**
 * Answers given before the request's body has all arrived close the connection (reply-from:
 * it cannot be reused until the body is read), on either path; when the body arrives first,
 * the connection is kept. Which comes first is the timing's, not the path's.
 */
const ANSWERED_BEFORE_BODY = new Set([
  'an upload with a bad extension, refused before its body',
  'an upload without a login, refused before its body',
  'an upload over the size limit, refused before its body',
]);

/** `security.max_document_size` of the backend, in MB. */
const MAX_UPLOAD_MB = 1;

/**
 * What may differ between two gateways: their own request id, the date, the origin (their
 * port), a fresh token (and the seconds to its expiry) or download link, times and ids the
 * backend makes per request.
 */
function comparable(
  answer: Answer,
  origin: string,
  exchange = '',
): { status: number; headers: Record<string, unknown>; body: string } {
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (ANSWERED_BEFORE_BODY.has(exchange) && (name === 'connection' || name === 'keep-alive')) continue;
    // The length follows the body, whose times may have fewer digits one way (RFC 3339 drops trailing zeros).
    // The seconds left of the login limit's window, which each gateway opened at its first login.
    if (name === 'date' || name === 'x-request-id' || name === 'content-length' || name === 'x-ratelimit-reset')
      continue;
    headers[name] =
      name === 'set-cookie'
        ? String(value)
            .replace(/^token=[^;]+/, 'token=<jwt>')
            .replace(/Max-Age=\d{7,}/, 'Max-Age=<a year>')
        : value;
  }
  const text = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body).toString('utf8') : answer.text;
  const length = answer.headers['content-length'];
  if (length !== undefined)
    headers['content-length'] = Number(length) === answer.body.length || answer.body.length === 0 ? 'the body' : length;
  return {
    status: answer.status,
    headers,
    body: text
      .replaceAll(origin, '<origin>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/"id":\d+/g, '"id":<n>')
      .replace(/\/download\/[\w.-]+\?/g, '/download/<token>?'),
  };
}

interface Session {
  cookie: string;
  /** the download link the last GetDownloadURL gave */
  link: string;
}

type Exchange = (url: string, session: Session) => Promise<Answer>;

/** What each way is sent, in order; `doc`: a converted document of two pages, free. */
function exchangesFor(backend: StartedBackend, doc: CreatedDocument): [string, Exchange][] {
  const json = (url: string, session: Session) => ({
    ...sameOrigin(url),
    cookie: session.cookie,
    'content-type': 'application/json',
  });
  return [
    ['settings', (url) => send(`${url}/api/v1/settings`)],
    ['settings, gzip', (url) => send(`${url}/api/v1/settings`, { headers: { 'accept-encoding': 'gzip' } })],
    ['HEAD of the settings', (url) => send(`${url}/api/v1/settings`, { method: 'HEAD' })],
    ['the document categories', (url) => send(`${url}/api/v1/category/list?type=0`)],
    ['the document list', (url) => send(`${url}/api/v1/document/list?page=1&size=10`)],
    ['a path the API does not have', (url) => send(`${url}/api/v1/no/such/call`)],
    [
      'a method the path does not take',
      (url) => send(`${url}/api/v1/settings`, { method: 'DELETE', headers: sameOrigin(url) }),
    ],
    [
      'a malformed JSON body',
      (url) =>
        send(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"username":',
        }),
    ],
    [
      'a wrong password',
      (url) =>
        send(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'wrong-password' }),
        }),
    ],
    [
      'a login, whose token becomes the cookie',
      async (url, session) => {
        const answer = await send(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: backend.adminPassword }),
        });
        session.cookie = answer.setCookies[0]!.split(';', 1)[0]!;
        return answer;
      },
    ],
    [
      'the current user from the cookie',
      (url, session) => send(`${url}/api/v1/user`, { headers: { cookie: session.cookie } }),
    ],
    [
      'a token the backend refuses, whose cookie goes',
      (url) => send(`${url}/api/v1/user`, { headers: { cookie: 'token=aaa.bbb.ccc' } }),
    ],
    [
      'an upload, streamed',
      (url, session) => {
        const form = multipart(pngHead(7), 'parity.png');
        return send(`${url}/api/v1/upload/avatar`, {
          method: 'POST',
          headers: { ...sameOrigin(url), cookie: session.cookie, 'content-type': form.type },
          body: form.body,
        });
      },
    ],
    [
      'an upload with a bad extension, refused before its body',
      (url, session) => {
        const form = multipart(pngHead(8), 'parity.exe');
        return send(`${url}/api/v1/upload/avatar`, {
          method: 'POST',
          headers: { ...sameOrigin(url), cookie: session.cookie, 'content-type': form.type },
          body: form.body,
        });
      },
    ],
    // Refused before the backend reads a byte of the body: the gateway must answer and go on (it once ended the
    // process here, on an error of the unread body that nothing listened for).
    [
      'an upload without a login, refused before its body',
      (url) => {
        const form = multipart(pngHead(9), 'parity.png');
        return send(`${url}/api/v1/upload/avatar`, {
          method: 'POST',
          headers: { ...sameOrigin(url), 'content-type': form.type },
          body: form.body,
        });
      },
    ],
    [
      'an upload over the size limit, refused before its body',
      (url, session) => {
        const form = multipart(Buffer.concat([pngHead(10), Buffer.alloc(MAX_UPLOAD_MB * 1024 * 1024)]), 'parity.png');
        return send(`${url}/api/v1/upload/avatar`, {
          method: 'POST',
          headers: { ...sameOrigin(url), cookie: session.cookie, 'content-type': form.type },
          body: form.body,
        });
      },
    ],
    ['the uploaded file', async (url) => send(`${url}${uploadedPath}`)],
    [
      'an uploaded file that is not there',
      (url) => send(`${url}/uploads/0/0/0/0/0/00000000000000000000000000000000.png`),
    ],
    ['a download link that is not one', (url) => send(`${url}/download/not-a-link`)],
    ['the sitemap', (url) => send(`${url}/sitemap.xml`)],
    [
      'a config write refused for a member of no admin group',
      (url) =>
        send(`${url}/api/v1/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' }),
    ],
    [
      'a gzip request body',
      (url) =>
        send(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: gzipSync('{}'),
        }),
    ],
    ['the home page with its route data', (url) => send(`${url}/`, { headers: { 'accept-encoding': 'gzip' } })],
    ['find in a document', (url) => send(`${url}/api/v1/document/find?id=${doc.id}&wd=quick%20brown`)],
    [
      'a reading position kept',
      (url, session) =>
        send(`${url}/api/v1/document/reading`, {
          method: 'PUT',
          headers: json(url, session),
          body: JSON.stringify({ document_id: doc.id, page: 2 }),
        }),
    ],
    [
      'the reading position',
      (url, session) =>
        send(`${url}/api/v1/document/reading?document_id=${doc.id}`, { headers: { cookie: session.cookie } }),
    ],
    ['a page image', (url) => send(`${url}/view/page/${doc.hash}/1.svg`, { headers: { 'accept-encoding': 'gzip' } })],
    [
      "a page's characters, gzip",
      (url) => send(`${url}/view/page/${doc.hash}/2.json`, { headers: { 'accept-encoding': 'gzip' } }),
    ],
    ["a page's characters, inflated", (url) => send(`${url}/view/page/${doc.hash}/2.json`)],
    [
      'a download link asked for by another site, refused',
      (url, session) =>
        send(`${url}/api/v1/document/download?id=${doc.id}`, {
          headers: { cookie: session.cookie, 'sec-fetch-site': 'cross-site' },
        }),
    ],
    [
      'a download link',
      async (url, session) => {
        const answer = await send(`${url}/api/v1/document/download?id=${doc.id}`, {
          headers: { cookie: session.cookie, 'sec-fetch-site': 'same-origin' },
        });
        session.link = answer.status === 200 ? answer.json<{ url: string }>().url : '';
        return answer;
      },
    ],
    ['the document downloaded', (url, session) => send(`${url}${session.link}`)],
    ['the readiness check', (url) => send(`${url}/readyz`)],
  ];
}

let uploadedPath = '';

/** Exchanges whose answer must be a success, whichever way: the others would compare two errors. */
const MUST_SUCCEED = new Set([
  'an upload, streamed',
  'find in a document',
  'a reading position kept',
  'the reading position',
  'a page image',
  "a page's characters, gzip",
  'a download link',
  'the document downloaded',
]);

/** Exchanges that must be refused, with their status, whichever way. */
const MUST_REFUSE: Record<string, number> = {
  'an upload without a login, refused before its body': 401,
  'an upload over the size limit, refused before its body': 400,
};

const STORES: (readonly [string, boolean])[] = [['files in DATA_DIR', false], ...onS3(['files in S3', true] as const)];

describe.each(STORES)('the embedded backend in process and a backend over HTTP, %s', (_store, inS3) => {
  let s3: TestS3 | undefined;
  let backend: StartedBackend;
  let inProcess: TestGateway;
  let remote: TestGateway;
  let doc: CreatedDocument;

  beforeAll(async () => {
    s3 = inS3 ? await startS3() : undefined;
    backend = await startBackend({
      env: {
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
        CONFIG_SECURITY_MAX_DOCUMENT_SIZE: String(MAX_UPLOAD_MB),
      },
      ...(s3 ? { s3 } : {}),
    });
    // Logged in once before, so that each way's login answers with a previous login in it.
    const adminToken = await login(backend.url, 'admin', backend.adminPassword);
    doc = await createDocument(backend.url, adminToken, textPdf(2), 'parity.pdf', { title: 'Parity' });
    await waitForStatus(backend.url, adminToken, doc.id, [2]);
    const embedded = inProcessBackend(backend.app);
    // The pages' route data compared whole: its calls are given time for a busy machine (a late
    // call is left out of the page, and the two ways would differ by what was late).
    const patient = { routeDataTimeoutMs: 30_000 };
    inProcess = await startGateway('', patient, { dispatcher: embedded.dispatcher, viewFiles: embedded.viewFiles });
    remote = await startGateway(backend.url, patient);
  }, 120_000);
  afterAll(async () => {
    await inProcess?.close();
    await remote?.close();
    await backend?.close();
    await s3?.stop();
  });

  it('give the same answers, statuses, headers and errors', async () => {
    const sessions = { inProcess: { cookie: '', link: '' }, remote: { cookie: '', link: '' } };
    for (const [name, exchange] of exchangesFor(backend, doc)) {
      const viaProcess = await exchange(inProcess.url, sessions.inProcess);
      const viaHttp = await exchange(remote.url, sessions.remote);
      if (MUST_SUCCEED.has(name)) expect(viaProcess.status, `${name}: ${viaProcess.text}`).toBe(200);
      if (MUST_REFUSE[name]) expect(viaProcess.status, `${name}: ${viaProcess.text}`).toBe(MUST_REFUSE[name]);
      if (name === 'an upload, streamed') uploadedPath = viaProcess.json<{ data: { path: string } }>().data.path;
      expect(comparable(viaProcess, inProcess.url, name), name).toEqual(comparable(viaHttp, remote.url, name));
    }
    expect(sessions.inProcess.cookie).toMatch(/^token=/);
    expect(sessions.inProcess.link).toMatch(/^\/download\//);
  });
});
