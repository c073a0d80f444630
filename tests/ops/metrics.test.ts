import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadGatewayConfig } from '../../gateway/config';
import { upstreamErrorKind } from '../../gateway/plugins/backend-client';
import { routeGroup } from '../../gateway/plugins/metrics';
import { sameOrigin, send, sendRaw, startGateway, startStub, json, type TestGateway } from '../gateway/helpers';
import { startFakeBackend, type FakeBackend } from '../gateway/fake-backend';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const ON = { metrics: { enabled: true, token: undefined } };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (0 when absent). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

async function scrape(gw: TestGateway, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await send(`${gw.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  return parseExposition(res.text);
}

/** A port on which nothing listens: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('metrics configuration', () => {
  it('is off unless METRICS or METRICS_TOKEN says otherwise', () => {
    expect(loadGatewayConfig({}).metrics).toEqual({ enabled: false, token: undefined });
    expect(loadGatewayConfig({ METRICS: '1' }).metrics).toEqual({ enabled: true, token: undefined });
    expect(loadGatewayConfig({ METRICS: '' }).metrics).toEqual({ enabled: false, token: undefined });
    const token = 'scrape-token-0123456789';
    expect(loadGatewayConfig({ METRICS_TOKEN: token }).metrics).toEqual({ enabled: true, token });
    expect(loadGatewayConfig({ METRICS: '0', METRICS_TOKEN: token }).metrics).toEqual({ enabled: false, token });
  });

  it('refuses an unclear switch and a weak token with a message naming the variable', () => {
    expect(() => loadGatewayConfig({ METRICS: 'maybe' })).toThrow(/METRICS: must be 1 or 0/);
    expect(() => loadGatewayConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/METRICS_TOKEN/);
  });
});

describe('route groups and upstream error kinds', () => {
  it('groups requests by what they are for', () => {
    expect(routeGroup('GET', '/api/v1/settings')).toBe('api');
    expect(routeGroup('POST', '/api/v1/upload/document')).toBe('upload');
    expect(routeGroup('POST', '/api/v1/uploads')).toBe('api');
    expect(routeGroup('GET', '/assets/app-1.js')).toBe('asset');
    expect(routeGroup('GET', '/view/page/0123/1.svg?x=1')).toBe('file');
    expect(routeGroup('GET', '/favicon.ico')).toBe('file');
    expect(routeGroup('GET', '/healthz')).toBe('health');
    expect(routeGroup('GET', '/metrics')).toBe('metrics');
    expect(routeGroup('GET', '/admin/dashboard?tab=1')).toBe('page');
    expect(routeGroup('POST', '/admin')).toBe('other');
  });

  it('names undici failures by kind', () => {
    expect(upstreamErrorKind({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toBe('timeout');
    expect(upstreamErrorKind({ code: 'UND_ERR_SOCKET', cause: { code: 'ECONNREFUSED' } })).toBe('refused');
    expect(upstreamErrorKind({ code: 'ECONNREFUSED' })).toBe('refused');
    expect(upstreamErrorKind({ code: 'UND_ERR_SOCKET' })).toBe('reset');
    expect(upstreamErrorKind({ code: 'UND_ERR_ABORTED' })).toBe('aborted');
    expect(upstreamErrorKind(new Error('odd'))).toBe('other');
  });
});

describe('/metrics over HTTP', () => {
  let backend: FakeBackend;
  let off: TestGateway;
  let on: TestGateway;

  beforeAll(async () => {
    backend = await startFakeBackend();
    off = await startGateway(backend.url);
    on = await startGateway(backend.url, { ...ON, authRateLimit: { max: 1, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await Promise.all([off.close(), on.close()]);
    await backend.close();
  });

  it('answers 404 JSON when metrics are off, also to a browser', async () => {
    for (const headers of [{}, HTML] as Record<string, string>[]) {
      const res = await send(`${off.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ code: 404 });
    }
  });

  it('counts requests by route group and status, with their latency', async () => {
    const before = await scrape(on);
    expect((await send(`${on.url}/api/v1/settings`)).status).toBe(200);
    expect((await send(`${on.url}/api/v1/settings`)).status).toBe(200);
    expect((await send(`${on.url}/api/v1/nothing-here`)).status).toBe(404);
    expect((await send(`${on.url}/assets/app-3f9a1c.js`)).status).toBe(200);
    expect((await send(`${on.url}/`, { headers: HTML })).status).toBe(200);
    expect((await send(`${on.url}/healthz`)).status).toBe(200);
    expect((await send(`${on.url}/view/page/0123456789abcdef0123456789abcdef/1.svg`)).status).toBe(404);
    const after = await scrape(on);

    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('gateway_http_requests_total', { group: 'api', status: '200' })).toBe(2);
    expect(delta('gateway_http_requests_total', { group: 'api', status: '404' })).toBe(1);
    expect(delta('gateway_http_requests_total', { group: 'asset', status: '200' })).toBe(1);
    expect(delta('gateway_http_requests_total', { group: 'page', status: '200' })).toBe(1);
    expect(delta('gateway_http_requests_total', { group: 'health', status: '200' })).toBe(1);
    expect(delta('gateway_http_requests_total', { group: 'file', status: '404' })).toBe(1);
    // the scrape before this one is counted too
    expect(delta('gateway_http_requests_total', { group: 'metrics', status: '200' })).toBe(1);

    expect(delta('gateway_http_request_duration_seconds_count', { group: 'api', status: '200' })).toBe(2);
    const sum = valueOf(after, 'gateway_http_request_duration_seconds_sum', { group: 'api', status: '200' });
    expect(sum).toBeGreaterThan(0);
    const infBucket = valueOf(after, 'gateway_http_request_duration_seconds_bucket', {
      group: 'api',
      status: '200',
      le: '+Inf',
    });
    expect(infBucket).toBe(
      valueOf(after, 'gateway_http_request_duration_seconds_count', { group: 'api', status: '200' }),
    );
    // process metrics come along
    expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('serves the Prometheus text format, never cached', async () => {
    const res = await send(`${on.url}/metrics`);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('# TYPE gateway_http_requests_total counter');
    expect(res.text).toContain('# TYPE gateway_http_request_duration_seconds histogram');
  });

  it('counts the page guard decisions on admin and member pages', async () => {
    const before = await scrape(on);
    const visit = (path: string, token?: string) =>
      sendRaw(on.url, path, { headers: token ? { ...HTML, cookie: `token=${token}` } : HTML });
    expect((await visit('/admin/user/list')).status).toBe(302); // anonymous → login
    expect((await visit('/member/profile')).status).toBe(302); // anonymous → login
    expect((await visit('/admin/user/list', backend.memberToken)).status).toBe(302); // member → home
    expect((await visit('/admin/user/list', backend.adminToken)).status).toBe(200);
    expect((await visit('/member/profile', backend.memberToken)).status).toBe(200);
    expect((await visit('/vip')).status).toBe(200); // public: no guard
    const after = await scrape(on);

    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'gateway_guard_decisions_total', labels) -
      valueOf(before, 'gateway_guard_decisions_total', labels);
    expect(delta({ guard: 'admin_page', decision: 'login' })).toBe(1);
    expect(delta({ guard: 'admin_page', decision: 'home' })).toBe(1);
    expect(delta({ guard: 'admin_page', decision: 'allow' })).toBe(1);
    expect(delta({ guard: 'member_page', decision: 'login' })).toBe(1);
    expect(delta({ guard: 'member_page', decision: 'allow' })).toBe(1);
  });

  it('counts the site switches: the closed-site page and a public page sent to the login page', async () => {
    // start data read on every page, so that the switch applies at once
    const fresh = await startGateway(backend.url, { ...ON, startDataTtlMs: 0 });
    const saved = backend.settings.security;
    try {
      backend.settings.security = { ...saved, is_close: true };
      const before = await scrape(fresh);
      const visit = (path: string, token?: string) =>
        sendRaw(fresh.url, path, { headers: token ? { ...HTML, cookie: `token=${token}` } : HTML });
      expect((await visit('/')).status).toBe(302); // anonymous → login
      expect((await visit('/library', backend.memberToken)).status).toBe(503); // member → closed
      expect((await visit('/', backend.adminToken)).status).toBe(200); // admin passes
      const after = await scrape(fresh);
      const delta = (labels: Record<string, string>) =>
        valueOf(after, 'gateway_guard_decisions_total', labels) -
        valueOf(before, 'gateway_guard_decisions_total', labels);
      expect(delta({ guard: 'site', decision: 'login' })).toBe(1);
      expect(delta({ guard: 'site', decision: 'closed' })).toBe(1);
    } finally {
      backend.settings.security = saved;
      await fresh.close();
    }
  });

  it('counts CSRF and rate-limit refusals, and not the requests that pass', async () => {
    const before = await scrape(on);
    const cookie = `token=${backend.memberToken}`;
    const crossSite = await send(`${on.url}/api/v1/navigation`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await send(`${on.url}/api/v1/navigation`, {
      method: 'POST',
      headers: sameOrigin(on.url, { cookie, 'content-type': 'application/json' }),
      body: '{"title":"x"}',
    });
    expect(sameSite.status).toBe(200);
    const login = () =>
      send(`${on.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username":"a","password":"b"}',
      });
    expect((await login()).status).not.toBe(429);
    expect((await login()).status).toBe(429);
    const after = await scrape(on);

    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'gateway_guard_decisions_total', labels) -
      valueOf(before, 'gateway_guard_decisions_total', labels);
    expect(delta({ guard: 'csrf', decision: 'refused' })).toBe(1);
    expect(delta({ guard: 'rate_limit', decision: 'refused' })).toBe(1);
    expect(delta({ guard: 'csrf', decision: 'allow' })).toBe(0);
  });
});

describe('guard decisions are read from what the guards recorded', () => {
  it("does not count the backend's own 429 on login as a rate-limit refusal of the gateway", async () => {
    const busy = await startStub((_req, res) =>
      json(res, 429, { code: 8, message: '请求过于频繁' }, { 'retry-after': '30' }),
    );
    const gw = await startGateway(busy.url, ON);
    try {
      const res = await send(`${gw.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('30');
      expect(
        valueOf(await scrape(gw), 'gateway_guard_decisions_total', { guard: 'rate_limit', decision: 'refused' }),
      ).toBe(0);
    } finally {
      await gw.close();
      await busy.close();
    }
  });
});

describe('upstream errors', () => {
  it('counts a page whose start data the backend could not give once, not once per call', async () => {
    const port = await closedPort();
    const gw = await startGateway(`http://127.0.0.1:${port}`, ON);
    try {
      // The page saying the service is unavailable (decision 118).
      expect((await send(`${gw.url}/library`, { headers: HTML })).status).toBe(503);
      const samples = await scrape(gw);
      expect(valueOf(samples, 'gateway_upstream_errors_total', { kind: 'refused' })).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('counts a refused backend connection', async () => {
    const port = await closedPort();
    const gw = await startGateway(`http://127.0.0.1:${port}`, ON);
    try {
      const res = await send(`${gw.url}/api/v1/settings`);
      expect(res.status).toBe(502);
      const samples = await scrape(gw);
      expect(valueOf(samples, 'gateway_upstream_errors_total', { kind: 'refused' })).toBe(1);
      expect(valueOf(samples, 'gateway_http_requests_total', { group: 'api', status: '502' })).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('counts a backend that does not answer in time, and only its own backend', async () => {
    const silent = await startStub(() => new Promise<void>(() => undefined));
    const answering = await startStub((_req, res) => json(res, 200, {}));
    const slow = await startGateway(silent.url, { ...ON, upstreamTimeoutMs: 200 });
    const other = await startGateway(answering.url, ON);
    try {
      expect((await send(`${slow.url}/api/v1/settings`)).status).toBe(504);
      expect(valueOf(await scrape(slow), 'gateway_upstream_errors_total', { kind: 'timeout' })).toBe(1);
      const unrelated = await scrape(other);
      expect(unrelated.filter((s) => s.name === 'gateway_upstream_errors_total')).toEqual([]);
    } finally {
      await Promise.all([slow.close(), other.close()]);
      await Promise.all([silent.close(), answering.close()]);
    }
  });
});

describe('/metrics behind METRICS_TOKEN', () => {
  const token = 'scrape-token-0123456789abcdef';
  let backend: FakeBackend;
  let gw: TestGateway;

  beforeAll(async () => {
    backend = await startFakeBackend();
    gw = await startGateway(backend.url, { metrics: loadGatewayConfig({ METRICS_TOKEN: token }).metrics! });
  });
  afterAll(async () => {
    await gw.close();
    await backend.close();
  });

  it('asks for the bearer token without one and refuses a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abcdef' },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const res = await send(`${gw.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toMatchObject({ code: 401 });
      expect(res.text).not.toContain('gateway_http_requests_total');
    }
  });

  it('answers with the token', async () => {
    const samples = await scrape(gw, { authorization: `Bearer ${token}` });
    expect(samples.some((s) => s.name === 'gateway_http_requests_total')).toBe(true);
  });
});
