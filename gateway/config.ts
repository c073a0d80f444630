// Gateway configuration: read once from the environment, validated, then passed around as a
// plain object. Nothing else in gateway/ reads process.env.
import { isIP } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPV6_PREFIX } from '../shared/address-key';
import { TOKEN_COOKIE_NAME } from '../shared/constants';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'text' | 'json';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface RateLimitSetting {
  /** requests allowed per client address and endpoint in one window */
  max: number;
  windowMs: number;
}

export interface MetricsSetting {
  /** METRICS=1, or METRICS_TOKEN set */
  enabled: boolean;
  /** METRICS_TOKEN: a scrape of /metrics must send it as a bearer token */
  token: string | undefined;
}

export interface GatewayConfig {
  port: number;
  host: string;
  /** undefined: the gateway starts the embedded backend itself */
  backendUrl: string | undefined;
  dataDir: string;
  /** e.g. https://docs.example.com; undefined: taken from the request's Host (direct use) */
  publicOrigin: string | undefined;
  /** Fastify trustProxy: false, true, or the addresses/CIDRs of the proxies in front of us */
  trustProxy: boolean | string[];
  tokenCookie: string;
  upstreamTimeoutMs: number;
  /** BODY_TIMEOUT_MS: how long a request body may take (an upload's: between two chunks) before a 408 */
  bodyTimeoutMs: number;
  logLevel: LogLevel;
  /** LOG_FORMAT: `text` (one readable line per event), `json`; default text on a terminal, else json */
  logFormat: LogFormat;
  /** the built SPA (index.html + assets/); WEB_DIST, default web/dist of the repository */
  webDist: string;
  /** login, register, find-password: per client address and endpoint */
  authRateLimit: RateLimitSetting;
  /** CLIENT_IPV6_PREFIX: the prefix length an IPv6 client is counted by, here and in the backend (addressKey) */
  ipv6Prefix: number;
  /** how long settings/navigation/categories for the start data are reused */
  startDataTtlMs: number;
  /** how long a page waits for its route data (ROUTE_DATA_TIMEOUT_MS); 0: pages carry none */
  routeDataTimeoutMs: number;
  /** how long visitors' route data, and their pages rendered with it, are reused */
  routeDataTtlMs: number;
  /** how long the page guard reuses a token's session (user, permissions, rendered page) */
  sessionCacheTtlMs: number;
  /** how many tokens' sessions it keeps at most */
  sessionCacheMax: number;
  /** /metrics; absent: off */
  metrics?: MetricsSetting;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The folder of package.json above this file: gateway/.. from source, dist/server/.. when bundled. */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '..');
  }
}

export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));

export const DEFAULTS = {
  port: 3000,
  host: 'localhost',
  dataDir: './data',
  tokenCookie: TOKEN_COOKIE_NAME,
  upstreamTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  logLevel: 'info' as LogLevel,
  logFormat: 'json' as LogFormat,
  webDist: resolve(REPO_ROOT, 'web/dist'),
  authRateLimit: { max: 10, windowMs: 60_000 },
  ipv6Prefix: IPV6_PREFIX.default,
  startDataTtlMs: 10_000,
  routeDataTimeoutMs: 800,
  routeDataTtlMs: 5_000,
  sessionCacheTtlMs: 10_000,
  sessionCacheMax: 1_000,
};

// RFC 6265 cookie-name = token (RFC 7230 tchar)
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CIDR = /^(.+)\/(\d{1,3})$/;

type Env = Record<string, string | undefined>;

function present(env: Env, key: string): string | undefined {
  const value = env[key]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function parseInteger(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

function parseHttpOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.pathname !== '/') return undefined;
  return url.origin;
}

function parseTrustProxy(raw: string, problems: string[]): boolean | string[] {
  const lower = raw.toLowerCase();
  if (lower === 'false' || lower === '0' || lower === 'no') return false;
  if (lower === 'true' || lower === 'yes') return true;
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const cidr = CIDR.exec(entry);
    const address = cidr ? cidr[1]! : entry;
    const family = isIP(address);
    const bits = cidr ? Number(cidr[2]) : 0;
    if (family === 0 || (cidr && bits > (family === 4 ? 32 : 128))) {
      problems.push(
        `TRUST_PROXY: "${entry}" is not an IP address or CIDR; use true, false, or a comma-separated list like "10.0.0.0/8,127.0.0.1" (hop counts are not supported)`,
      );
    }
  }
  return entries;
}

const METRICS_TOKEN = /^[\x21-\x7e]{16,}$/;

/** METRICS=1 turns /metrics on; METRICS_TOKEN turns it on behind a bearer token; METRICS=0 wins. */
function parseMetrics(env: Env, problems: string[]): MetricsSetting {
  const token = present(env, 'METRICS_TOKEN');
  if (token !== undefined && !METRICS_TOKEN.test(token)) {
    problems.push('METRICS_TOKEN: must be at least 16 printable ASCII characters without spaces');
  }
  const raw = present(env, 'METRICS');
  let enabled = token !== undefined;
  if (raw !== undefined) {
    const lower = raw.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lower)) enabled = true;
    else if (['0', 'false', 'no', 'off'].includes(lower)) enabled = false;
    else problems.push(`METRICS: must be 1 or 0 (got "${raw}")`);
  }
  return { enabled, token };
}

/** Reads and validates the gateway's environment. Throws ConfigError listing every bad value. */
export function loadGatewayConfig(env: Env): GatewayConfig {
  const problems: string[] = [];

  let port = DEFAULTS.port;
  const rawPort = present(env, 'PORT');
  if (rawPort !== undefined) {
    const parsed = parseInteger(rawPort, 0, 65535);
    if (parsed === undefined) problems.push(`PORT: must be an integer from 0 to 65535 (got "${rawPort}")`);
    else port = parsed;
  }

  const host = present(env, 'HOST') ?? DEFAULTS.host;
  if (/\s|\//.test(host)) problems.push(`HOST: must be a host name or IP address (got "${host}")`);

  let backendUrl: string | undefined;
  const rawBackend = present(env, 'BACKEND_URL');
  if (rawBackend !== undefined) {
    backendUrl = parseHttpOrigin(rawBackend);
    if (backendUrl === undefined) {
      problems.push(
        `BACKEND_URL: must be an http(s) origin without path, query or credentials, e.g. http://127.0.0.1:8880 (got "${rawBackend}")`,
      );
    }
  }

  const dataDir = resolve(present(env, 'DATA_DIR') ?? DEFAULTS.dataDir);

  let publicOrigin: string | undefined;
  const rawOrigin = present(env, 'PUBLIC_ORIGIN');
  if (rawOrigin !== undefined) {
    publicOrigin = parseHttpOrigin(rawOrigin);
    if (publicOrigin === undefined) {
      problems.push(`PUBLIC_ORIGIN: must be an http(s) origin like https://docs.example.com (got "${rawOrigin}")`);
    }
  }

  const rawTrust = present(env, 'TRUST_PROXY');
  const trustProxy = rawTrust === undefined ? false : parseTrustProxy(rawTrust, problems);

  const tokenCookie = present(env, 'TOKEN_COOKIE') ?? DEFAULTS.tokenCookie;
  if (!COOKIE_NAME.test(tokenCookie)) problems.push(`TOKEN_COOKIE: not a valid cookie name (got "${tokenCookie}")`);

  let upstreamTimeoutMs = DEFAULTS.upstreamTimeoutMs;
  const rawTimeout = present(env, 'UPSTREAM_TIMEOUT_MS');
  if (rawTimeout !== undefined) {
    const parsed = parseInteger(rawTimeout, 1, 3_600_000);
    if (parsed === undefined) {
      problems.push(`UPSTREAM_TIMEOUT_MS: must be an integer from 1 to 3600000 milliseconds (got "${rawTimeout}")`);
    } else upstreamTimeoutMs = parsed;
  }

  let bodyTimeoutMs = DEFAULTS.bodyTimeoutMs;
  const rawBodyTimeout = present(env, 'BODY_TIMEOUT_MS');
  if (rawBodyTimeout !== undefined) {
    const parsed = parseInteger(rawBodyTimeout, 1, 3_600_000);
    if (parsed === undefined) {
      problems.push(`BODY_TIMEOUT_MS: must be an integer from 1 to 3600000 milliseconds (got "${rawBodyTimeout}")`);
    } else bodyTimeoutMs = parsed;
  }

  let logLevel = DEFAULTS.logLevel;
  const rawLevel = present(env, 'LOG_LEVEL');
  if (rawLevel !== undefined) {
    if ((LOG_LEVELS as readonly string[]).includes(rawLevel)) logLevel = rawLevel as LogLevel;
    else problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')} (got "${rawLevel}")`);
  }

  // Readable lines for a person at a terminal; JSON for log collectors (and when asked).
  let logFormat: LogFormat = process.stdout.isTTY ? 'text' : DEFAULTS.logFormat;
  const rawFormat = present(env, 'LOG_FORMAT');
  if (rawFormat !== undefined) {
    if (rawFormat === 'text' || rawFormat === 'json') logFormat = rawFormat;
    else problems.push(`LOG_FORMAT: must be text or json (got "${rawFormat}")`);
  }

  const webDist = resolve(present(env, 'WEB_DIST') ?? DEFAULTS.webDist);

  let routeDataTimeoutMs = DEFAULTS.routeDataTimeoutMs;
  const rawRouteData = present(env, 'ROUTE_DATA_TIMEOUT_MS');
  if (rawRouteData !== undefined) {
    const parsed = parseInteger(rawRouteData, 0, 60_000);
    if (parsed === undefined) {
      problems.push(
        `ROUTE_DATA_TIMEOUT_MS: must be an integer from 0 to 60000 milliseconds, 0 to serve pages without route data (got "${rawRouteData}")`,
      );
    } else routeDataTimeoutMs = parsed;
  }

  let ipv6Prefix: number = DEFAULTS.ipv6Prefix;
  const rawPrefix = present(env, 'CLIENT_IPV6_PREFIX');
  if (rawPrefix !== undefined) {
    const parsed = parseInteger(rawPrefix, IPV6_PREFIX.min, IPV6_PREFIX.max);
    if (parsed === undefined) {
      problems.push(
        `CLIENT_IPV6_PREFIX: must be an integer from ${IPV6_PREFIX.min} to ${IPV6_PREFIX.max}, the prefix length one IPv6 client holds (got "${rawPrefix}")`,
      );
    } else ipv6Prefix = parsed;
  }

  const metrics = parseMetrics(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port,
    host,
    backendUrl,
    dataDir,
    publicOrigin,
    trustProxy,
    tokenCookie,
    upstreamTimeoutMs,
    bodyTimeoutMs,
    logLevel,
    logFormat,
    webDist,
    authRateLimit: { ...DEFAULTS.authRateLimit },
    ipv6Prefix,
    startDataTtlMs: DEFAULTS.startDataTtlMs,
    routeDataTimeoutMs,
    routeDataTtlMs: DEFAULTS.routeDataTtlMs,
    sessionCacheTtlMs: DEFAULTS.sessionCacheTtlMs,
    sessionCacheMax: DEFAULTS.sessionCacheMax,
    metrics,
  };
}
