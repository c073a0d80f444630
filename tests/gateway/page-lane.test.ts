// The lane in front of Fastify (gateway/page-lane.ts): a visitor's page that the gateway keeps
// is answered again without going through Fastify, byte for byte and header for header as
// Fastify answered it, with its own request id and access line; everything else, and a kept
// page that is no longer current, is still Fastify's. A hook counts what reaches Fastify.
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PageLane } from '../../gateway/page-lane';
import {
  COUNTED_TTL_MS,
  CRAWLER,
  accessLines,
  clockAhead,
  sameOrigin,
  sameParts,
  send,
  sendRaw,
  startCounted,
  type Answer,
  type CountedGateway,
} from './helpers';
import { useCountedSite, type FakeBackend } from './fake-backend';

const PERSON = {
  accept: 'text/html,application/xhtml+xml',
  'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
};
/** How long a visitor's page is kept (the route data's lifetime). */
const TTL_MS = COUNTED_TTL_MS;

let backend: FakeBackend;
let gw: CountedGateway;

useCountedSite((site) => ({ backend, gw } = site));
afterEach(() => {
  gw.logs.length = 0;
});

describe('the lane', () => {
  it("answers a visitor's kept page again without Fastify, with the same status, headers and bytes, in every coding", async () => {
    for (const encoding of [undefined, 'gzip', 'br']) {
      const headers = encoding ? { ...PERSON, 'accept-encoding': encoding } : PERSON;
      const first = await send(`${gw.url}/vip`, { headers });
      const reached = gw.reachedFastify();
      const again = await send(`${gw.url}/vip`, { headers });
      const third = await send(`${gw.url}/vip`, { headers });
      expect(gw.reachedFastify()).toBe(reached);
      expect(again.status).toBe(first.status);
      expect(sameParts(again)).toEqual(sameParts(first));
      expect(again.body.equals(first.body)).toBe(true);
      expect(again.headers['content-encoding']).toBe(encoding);
      // a request id of its own for every answer
      expect(new Set([first, again, third].map((a) => a.headers['x-request-id'])).size).toBe(3);
    }
    const br = await send(`${gw.url}/vip`, { headers: { ...PERSON, 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(br.body).toString('utf8')).toContain('<title>');
  });

  it('writes the access line of each answer, with its request id, status, bytes and address', async () => {
    await send(`${gw.url}/library`, { headers: PERSON });
    gw.logs.length = 0;
    const reached = gw.reachedFastify();
    const answer = await send(`${gw.url}/library?page=1&token=secret`, { headers: PERSON });
    const again = await send(`${gw.url}/library?page=1&token=secret`, { headers: PERSON });
    expect(gw.reachedFastify()).toBe(reached + 1);
    const lines = accessLines(gw.logs);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      reqId: again.headers['x-request-id'],
      url: '/library?page=1&token=[redacted]',
      status: 200,
      ip: '127.0.0.1',
    });
    // the status line, headers and body, as the connection sent them
    expect(lines[1]!.bytes).toBeGreaterThan(again.body.length);
    expect(lines[1]!.bytes).toBe(lines[0]!.bytes);
    expect(lines[0]!.reqId).toBe(answer.headers['x-request-id']);
  });

  it('leaves to Fastify what may carry a session, what is not a page request as kept, and what differs in how it is answered', async () => {
    await send(`${gw.url}/vip`, { headers: PERSON });
    const cases: [string, () => Promise<Answer>][] = [
      ['a member', () => send(`${gw.url}/vip`, { headers: { ...PERSON, cookie: `token=${backend.memberToken}` } })],
      [
        'a stale cookie',
        () => send(`${gw.url}/vip`, { headers: { ...PERSON, cookie: `token=${backend.revokedToken}` } }),
      ],
      [
        'a bearer token',
        () => send(`${gw.url}/vip`, { headers: { ...PERSON, authorization: `Bearer ${backend.memberToken}` } }),
      ],
      ['HEAD', () => send(`${gw.url}/vip`, { method: 'HEAD', headers: PERSON })],
      ['a path not in its canonical form', () => sendRaw(gw.url, '/x/../vip', { headers: PERSON })],
      ['an encoded path', () => sendRaw(gw.url, '/%76ip', { headers: PERSON })],
      ['a request for JSON', () => send(`${gw.url}/vip`, { headers: { accept: 'application/json' } })],
      [
        'a GET with a body',
        () => sendRaw(gw.url, '/vip', { headers: { ...PERSON, 'content-length': '2' }, body: '{}' }),
      ],
    ];
    for (const [what, ask] of cases) {
      const reached = gw.reachedFastify();
      await ask();
      expect(gw.reachedFastify(), what).toBe(reached + 1);
    }
    // the member's page is their own (no kept answer of theirs is given to the next visitor)
    const member = await send(`${gw.url}/vip`, { headers: { ...PERSON, cookie: `token=${backend.memberToken}` } });
    expect(member.headers['cache-control']).toBe('private, no-cache');
    const visitor = await send(`${gw.url}/vip`, { headers: PERSON });
    expect(visitor.headers['cache-control']).toBe('no-cache');
    expect(visitor.text).not.toContain('"username":"member"');
  });

  it("keeps a crawler's page apart from a person's", async () => {
    // a missing document: people get the app (which shows its 404), crawlers a plain page
    const person = await send(`${gw.url}/library/1/404404`, { headers: PERSON });
    const crawler = await send(`${gw.url}/library/1/404404`, { headers: CRAWLER });
    expect(person.status).toBe(404);
    expect(crawler.status).toBe(404);
    expect(crawler.body.equals(person.body)).toBe(false);
    const reached = gw.reachedFastify();
    const crawlerAgain = await send(`${gw.url}/library/1/404404`, { headers: CRAWLER });
    const personAgain = await send(`${gw.url}/library/1/404404`, { headers: PERSON });
    expect(gw.reachedFastify()).toBe(reached);
    expect(crawlerAgain.body.equals(crawler.body)).toBe(true);
    expect(personAgain.body.equals(person.body)).toBe(true);
    expect(sameParts(crawlerAgain)).toEqual(sameParts(crawler));
  });

  it('keeps pages per host the request names, when there is no PUBLIC_ORIGIN', async () => {
    const here = await send(`${gw.url}/library`, { headers: PERSON });
    const other = await send(`${gw.url}/library`, { headers: { ...PERSON, host: 'docs.example.com' } });
    expect(here.text).toContain(`<link rel="canonical" href="${gw.url}/library"`);
    expect(other.text).toContain('<link rel="canonical" href="http://docs.example.com/library"');
    const again = await send(`${gw.url}/library`, { headers: { ...PERSON, host: 'docs.example.com' } });
    expect(again.body.equals(other.body)).toBe(true);
  });

  it('stops answering a page when its time is up, and Fastify makes the next one', async () => {
    await send(`${gw.url}/library/1`, { headers: PERSON });
    clockAhead(TTL_MS + 1);
    const reached = gw.reachedFastify();
    await send(`${gw.url}/library/1`, { headers: PERSON });
    expect(gw.reachedFastify()).toBe(reached + 1);
  });

  it('stops answering the old page as soon as a change to the start data passes through', async () => {
    await send(`${gw.url}/`, { headers: PERSON });
    await send(`${gw.url}/`, { headers: PERSON });
    // a navigation change drops the start data only (gateway/cache-rules.ts), not the route data
    const write = await send(`${gw.url}/api/v1/navigation`, {
      method: 'POST',
      headers: sameOrigin(gw.url, { cookie: `token=${backend.adminToken}`, 'content-type': 'application/json' }),
      body: JSON.stringify({ title: '车道之后的导航', href: '/lane', enable: true }),
    });
    expect(write.status).toBe(200);
    const after = await send(`${gw.url}/`, { headers: PERSON });
    expect(after.text).toContain('车道之后的导航');
  });

  it('stops answering a page when the start data it was made from is past its time', async () => {
    const short = await startCounted(backend.url, { startDataTtlMs: 10_000, routeDataTtlMs: 60_000 });
    try {
      await send(`${short.url}/vip`, { headers: PERSON });
      await send(`${short.url}/vip`, { headers: PERSON });
      expect(short.reachedFastify()).toBe(1);
      clockAhead(10_001);
      await send(`${short.url}/vip`, { headers: PERSON });
      expect(short.reachedFastify()).toBe(2);
    } finally {
      await short.close();
    }
  });

  it('stops answering the old page as soon as a write makes its route data stale', async () => {
    backend.documents.set(31, { id: 31, title: '车道里的文档', category_id: [1] });
    const first = await send(`${gw.url}/library/1/31`, { headers: PERSON });
    expect(first.status).toBe(200);
    expect((await send(`${gw.url}/library/1/31`, { headers: PERSON })).body.equals(first.body)).toBe(true);
    const deleted = await send(`${gw.url}/api/v1/document?id=31`, {
      method: 'DELETE',
      headers: sameOrigin(gw.url, { cookie: `token=${backend.adminToken}` }),
    });
    expect(deleted.status).toBe(200);
    const after = await send(`${gw.url}/library/1/31`, { headers: PERSON });
    expect(after.status).toBe(404);
  });
});

describe('with metrics on', () => {
  it('the lane still answers kept pages, and each of its answers is counted with its time', async () => {
    const metered = await startCounted(backend.url, { metrics: { enabled: true, token: undefined } });
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < 3; i++) answers.push(await send(`${metered.url}/vip`, { headers: PERSON }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[2]?.body).toEqual(answers[0]?.body);
      expect(metered.reachedFastify()).toBe(1);
      const scrape = await send(`${metered.url}/metrics`);
      expect(scrape.text).toMatch(/gateway_http_requests_total\{group="page",status="200"\} 3/);
      expect(scrape.text).toMatch(/gateway_http_request_duration_seconds_count\{group="page",status="200"\} 3/);
    } finally {
      await metered.close();
    }
  });
});

describe('behind a trusted proxy', () => {
  it('an access line names the client behind a trusted proxy, as Fastify does', async () => {
    const proxied = await startCounted(backend.url, { trustProxy: true });
    try {
      await send(`${proxied.url}/vip`, { headers: { ...PERSON, 'x-forwarded-for': '203.0.113.9' } });
      await send(`${proxied.url}/vip`, { headers: { ...PERSON, 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.reachedFastify()).toBe(1);
      expect(accessLines(proxied.logs).map((line) => line.ip)).toEqual(['203.0.113.9', '203.0.113.9']);
    } finally {
      await proxied.close();
    }
  });
});

describe('the lane on its own', () => {
  it('answers what it keeps while it is current, leaves the rest to the handler behind it, and stops when closed', async () => {
    const lane = new PageLane(2);
    let behind = 0;
    let current = true;
    const server = lane.serverFactory(
      (_request, response) => {
        behind++;
        response.end('behind');
      },
      { keepAliveTimeout: 1234, requestTimeout: 5678, connectionTimeout: 0 },
    );
    expect(server.keepAliveTimeout).toBe(1234);
    expect(server.requestTimeout).toBe(5678);
    lane.install((request) => (request.url === '/kept' ? 'kept' : undefined));
    lane.keep('kept', {
      status: 203,
      headers: ['content-type', 'text/plain', 'content-length', '4'],
      body: Buffer.from('kept'),
      state: () => (current ? 'answer' : 'drop'),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const kept = await send(`${url}/kept`);
      expect([kept.status, kept.text, kept.headers['content-type'], behind]).toEqual([203, 'kept', 'text/plain', 0]);
      expect(kept.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect((await send(`${url}/other`)).text).toBe('behind');
      expect((await send(`${url}/kept`, { method: 'POST', body: 'x' })).text).toBe('behind');
      current = false;
      expect((await send(`${url}/kept`)).text).toBe('behind');
      // no longer current: dropped, and not answered again when it would be
      current = true;
      expect((await send(`${url}/kept`)).text).toBe('behind');
      lane.keep('kept', { status: 200, headers: [], body: Buffer.from('kept'), state: () => 'answer' });
      expect((await send(`${url}/kept`)).text).toBe('kept');
      lane.close();
      expect((await send(`${url}/kept`)).text).toBe('behind');
      lane.keep('kept', { status: 200, headers: [], body: Buffer.from('kept'), state: () => 'answer' });
      expect((await send(`${url}/kept`)).text).toBe('behind');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('passes a request to the handler behind it when its keeper says so, and keeps the answer', async () => {
    const lane = new PageLane(2);
    const server = lane.serverFactory((_request, response) => response.end('behind'), {});
    lane.install((request) => request.url);
    const states: ('answer' | 'pass')[] = ['answer', 'pass', 'answer'];
    lane.keep('/a', { status: 200, headers: [], body: Buffer.from('kept'), state: () => states.shift() ?? 'drop' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const texts: string[] = [];
      for (let i = 0; i < 5; i++) texts.push((await send(`${url}/a`)).text);
      // answered, passed, answered again, then dropped: behind from then on
      expect(texts).toEqual(['kept', 'behind', 'kept', 'behind', 'behind']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps at most the bytes of bodies it was given, the oldest out first', async () => {
    const lane = new PageLane(10, 25);
    const server = lane.serverFactory((_request, response) => response.end('behind'), {});
    lane.install((request) => request.url);
    for (const path of ['/a', '/b', '/c'])
      lane.keep(path, { status: 200, headers: [], body: Buffer.alloc(10, path), state: () => 'answer' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(
        await Promise.all(['/a', '/b', '/c'].map(async (path) => (await send(`${url}${path}`)).text.slice(0, 2))),
      ).toEqual(['be', '/b', '/c']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps at most as many answers as it was given, the oldest out first', async () => {
    const lane = new PageLane(2);
    const server = lane.serverFactory((_request, response) => response.end('behind'), {});
    lane.install((request) => request.url);
    for (const path of ['/a', '/b', '/c'])
      lane.keep(path, { status: 200, headers: [], body: Buffer.from(path), state: () => 'answer' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await Promise.all(['/a', '/b', '/c'].map(async (path) => (await send(`${url}${path}`)).text))).toEqual([
        'behind',
        '/b',
        '/c',
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
