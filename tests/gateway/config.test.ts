import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ConfigError, DEFAULTS, loadGatewayConfig } from '../../gateway/config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadGatewayConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadGatewayConfig', () => {
  it('has working defaults: port 3000, embedded backend, cookie "token", 30 s timeout', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      backendUrl: undefined,
      dataDir: resolve('./data'),
      publicOrigin: undefined,
      trustProxy: false,
      tokenCookie: 'token',
      upstreamTimeoutMs: 30_000,
      bodyTimeoutMs: 30_000,
      logLevel: 'info',
      webDist: DEFAULTS.webDist,
    });
  });

  it('reads every variable', () => {
    const config = loadGatewayConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      BACKEND_URL: 'https://moredoc.internal:8880/',
      DATA_DIR: '/var/lib/site',
      PUBLIC_ORIGIN: 'https://docs.example.com/',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1',
      TOKEN_COOKIE: '__Host-token',
      UPSTREAM_TIMEOUT_MS: '5000',
      BODY_TIMEOUT_MS: '120000',
      ROUTE_DATA_TIMEOUT_MS: '250',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'text',
      WEB_DIST: '/srv/web',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      backendUrl: 'https://moredoc.internal:8880',
      dataDir: '/var/lib/site',
      publicOrigin: 'https://docs.example.com',
      trustProxy: ['10.0.0.0/8', '127.0.0.1', '::1'],
      tokenCookie: '__Host-token',
      upstreamTimeoutMs: 5000,
      bodyTimeoutMs: 120_000,
      routeDataTimeoutMs: 250,
      logLevel: 'debug',
      logFormat: 'text',
      webDist: '/srv/web',
    });
  });

  it('treats empty values as unset and reads TRUST_PROXY booleans', () => {
    expect(loadGatewayConfig({ PORT: '', BACKEND_URL: ' ' }).port).toBe(3000);
    expect(loadGatewayConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadGatewayConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadGatewayConfig({}).routeDataTimeoutMs).toBe(800);
    expect(loadGatewayConfig({ ROUTE_DATA_TIMEOUT_MS: '0' }).routeDataTimeoutMs).toBe(0);
    expect(loadGatewayConfig({}).ipv6Prefix).toBe(64);
    expect(loadGatewayConfig({ CLIENT_IPV6_PREFIX: '48' }).ipv6Prefix).toBe(48);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['BACKEND_URL', 'localhost:8880'],
    ['BACKEND_URL', 'ftp://host'],
    ['BACKEND_URL', 'http://host/moredoc'],
    ['BACKEND_URL', 'http://user:pw@host'],
    ['PUBLIC_ORIGIN', 'docs.example.com'],
    ['PUBLIC_ORIGIN', 'https://docs.example.com/path'],
    ['TRUST_PROXY', '2'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'proxy.local'],
    ['TOKEN_COOKIE', 'my token'],
    ['TOKEN_COOKIE', 'a;b'],
    ['UPSTREAM_TIMEOUT_MS', '0'],
    ['UPSTREAM_TIMEOUT_MS', '1.5'],
    ['BODY_TIMEOUT_MS', '0'],
    ['BODY_TIMEOUT_MS', 'soon'],
    ['ROUTE_DATA_TIMEOUT_MS', '-5'],
    ['ROUTE_DATA_TIMEOUT_MS', '90000'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_FORMAT', 'pretty'],
    ['HOST', 'http://x'],
    ['CLIENT_IPV6_PREFIX', '31'],
    ['CLIENT_IPV6_PREFIX', '65'],
    ['CLIENT_IPV6_PREFIX', '/56'],
  ])('refuses %s=%s with a message naming the variable and the value', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
    expect(problems[0]).toContain(value.trim());
  });

  it('lists every bad value at once', () => {
    const error = (() => {
      try {
        loadGatewayConfig({ PORT: 'x', LOG_LEVEL: 'loud' });
      } catch (e) {
        return e as ConfigError;
      }
    })()!;
    expect(error.problems).toHaveLength(2);
    expect(error.message).toMatch(/^Invalid gateway configuration:\n {2}- PORT: .*\n {2}- LOG_LEVEL: /);
  });
});
