// An address with raw UTF-8 in its request line (`curl "http://host/search?wd=填充"`), which
// Node's parser refuses before Fastify sees a request: a page read moves to its address encoded,
// anything else gets a Chinese page or, for /api, the API's JSON error; other parse errors get
// the API's JSON error in Chinese (decision 110). Sent through a raw socket: every HTTP client encodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedTarget } from '../../gateway/client-error';
import { securityHeaders } from '../../gateway/plugins/security-headers';
import { MESSAGES } from '../../gateway/errors';
import { slowRequest } from '../helpers/slow-client';
import { startFakeBackend, type FakeBackend } from './fake-backend';
import { PERSON, send, sendRaw, startGateway, type TestGateway } from './helpers';

/** Far past any answer: the gateway closes the connection as it answers. */
const WAIT_MS = 30_000;

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url);
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});

/** The security headers every answer of the site carries (plugins/security-headers.ts). */
const SECURITY_HEADERS = Object.keys(securityHeaders(false));

/** The site's usual security headers, as a page it serves carries them. */
async function usualSecurityHeaders(): Promise<Record<string, unknown>> {
  const page = await send(`${gw.url}/search?wd=%E5%A1%AB`, { headers: PERSON });
  expect(page.headers['x-frame-options']).toBe('DENY');
  return Object.fromEntries(SECURITY_HEADERS.map((name) => [name, page.headers[name]]));
}

const securityOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(SECURITY_HEADERS.map((name) => [name, headers[name]]));

/** A request line written as it is: its characters as UTF-8 bytes, none encoded. */
const raw = (method: string, target: string, headers = '') =>
  slowRequest(gw.url, `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`, [], WAIT_MS);

describe('an address with unencoded characters', () => {
  it('moves a page read to its address encoded, which is served, with a Chinese page linking there', async () => {
    const answer = await raw('GET', '/search?wd=填充', 'Accept: text/html\r\n');
    expect(answer).toMatchObject({ answered: true, status: 301, closed: true });
    expect(answer.headers.location).toBe('/search?wd=%E5%A1%AB%E5%85%85');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(answer.body).toContain('<title>网址无效</title>');
    expect(answer.body).toContain(MESSAGES.unencodedAddress);
    expect(answer.body).toContain('<a href="/search?wd=%E5%A1%AB%E5%85%85">打开编码后的网址</a>');
    // A page of the site: its usual security headers (a CSP, no framing), though Fastify never saw it.
    expect(securityOf(answer.headers)).toEqual(await usualSecurityHeaders());
    const encoded = await send(`${gw.url}/search?wd=%E5%A1%AB%E5%85%85`, { headers: PERSON });
    expect(encoded.status).toBe(200);
  });

  it('gets the API JSON error for an API address, and no body to a HEAD', async () => {
    const answer = await raw('GET', '/api/v1/document/search?wd=填充');
    expect(answer).toMatchObject({ answered: true, status: 400, closed: true });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      code: 400,
      message: MESSAGES.unencodedAddress,
      error: MESSAGES.unencodedAddress,
    });
    const head = await raw('HEAD', '/文档');
    expect(head).toMatchObject({ answered: true, status: 301, body: '' });
    expect(head.headers.location).toBe('/%E6%96%87%E6%A1%A3');
  });

  it('gets the Chinese page as a 400 for a page it cannot move: a write, or bytes that are not UTF-8', async () => {
    const write = await raw('POST', '/search?wd=填充', 'Content-Length: 0\r\n');
    expect(write).toMatchObject({ answered: true, status: 400, closed: true });
    expect(write.headers.location).toBeUndefined();
    expect(write.body).toContain('<title>网址无效</title>');
    // `GET /` and GBK bytes (你好), in one packet: not UTF-8, no address to move to.
    const line = Buffer.concat([
      Buffer.from('GET /'),
      Buffer.from([0xc4, 0xe3, 0xba, 0xc3]),
      Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n'),
    ]);
    const gbk = await slowRequest(gw.url, '', [{ afterMs: 0, data: line }], WAIT_MS);
    expect(gbk).toMatchObject({ answered: true, status: 400 });
    expect(gbk.body).toContain('<title>网址无效</title>');
    expect(gbk.body).not.toContain('打开编码后的网址');
  });

  it('links only to an address on this site in UTF-8', () => {
    expect(encodedTarget(Buffer.from('/article/关于'))).toBe('/article/%E5%85%B3%E4%BA%8E');
    expect(encodedTarget(Buffer.from('//example.com/关于'))).toBeUndefined();
    expect(encodedTarget(Buffer.from('http://example.com/关于'))).toBeUndefined();
    // GBK bytes (你好): not UTF-8, not what the site's addresses are.
    expect(encodedTarget(Buffer.from([0x2f, 0xc4, 0xe3, 0xba, 0xc3]))).toBeUndefined();
  });

  it('answers the other requests the parser refuses in Chinese, and closes: a malformed header, headers past 16 KiB', async () => {
    const malformed = await slowRequest(gw.url, 'GET / HTTP/1.1\r\nHost: localhost\r\nno colon\r\n\r\n', [], WAIT_MS);
    expect(malformed).toMatchObject({ answered: true, status: 400, closed: true });
    expect(malformed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(malformed.body)).toEqual({
      code: 400,
      message: MESSAGES.malformedRequest,
      error: MESSAGES.malformedRequest,
    });
    // A search pasted whole: 2,000 characters are 18 KB encoded, past Node's 16 KiB of headers.
    const long = await raw('GET', `/search?wd=${encodeURIComponent('长'.repeat(2000))}`);
    expect(long).toMatchObject({ answered: true, status: 431, closed: true });
    expect(JSON.parse(long.body)).toEqual({
      code: 431,
      message: MESSAGES.headersTooLarge,
      error: MESSAGES.headersTooLarge,
    });
  });
});

describe('an address the router cannot read', () => {
  it('gets the Chinese page for a page, with no English or the address echoed', async () => {
    // A `%` without its two hex digits, and a link cut inside a character's escapes (书 is %E4%B9%A6).
    for (const path of ['/article/%', '/article/%E4%B9', '/admin/%zz']) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await sendRaw(gw.url, path, { method, headers: PERSON });
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('no-store');
        // Answered before Fastify's hooks run, it carries the site's usual headers and its request id all the same.
        expect(securityOf(answer.headers), `${method} ${path}`).toEqual(await usualSecurityHeaders());
        expect(answer.headers['x-request-id']).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        );
        if (method === 'HEAD') continue;
        expect(answer.text).toContain('<title>网址无效</title>');
        expect(answer.text).toContain(MESSAGES.unreadableAddress);
        expect(answer.text).not.toMatch(/valid url|FST_ERR/);
      }
    }
  });

  it('gets the API JSON error for an API address', async () => {
    const api = await sendRaw(gw.url, '/api/v1/document%E4%B9?id=1');
    expect(api.status).toBe(400);
    expect(securityOf(api.headers)).toEqual(await usualSecurityHeaders());
    expect(api.headers['x-request-id']).toBeTruthy();
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(api.json()).toEqual({
      code: 400,
      message: MESSAGES.unreadableAddress,
      error: MESSAGES.unreadableAddress,
    });
  });
});
