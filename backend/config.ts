import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { IPV6_PREFIX } from '../shared/address-key';
import { configValueProblem } from '../shared/config-rules';
import { PASSWORD_LENGTH, passwordProblems } from '../shared/validation';
import { findConfigKey } from './modules/config/keys';
import { assertBlobKey } from './platform/blobs/blob-store';
import { START_RETRY_FIRST_MS } from './platform/engine-away';
import type { S3BlobStoreOptions } from './platform/blobs/s3-blob-store';
import { scratchRoot } from './platform/scratch';
import type { BuildInfo } from './platform/build-info';
import type { SignInLimitSetting } from './platform/sign-in-limit';
import type { PaymentEndpoints } from './platform/context';
import type { OAuthConfig, OAuthProviderEndpoints, OAuthProviderName } from './platform/oauth-providers';
import type { SmsEndpoints } from './platform/sms/sms-provider';

// The embedded backend's process configuration, read once from the environment.
export interface BackendConfig {
  host: string;
  port: number;
  dataDir: string;
  jwtSecret?: string;
  adminPassword?: string;
  /** JWT_EXPIRE_DAYS, default 365 (MOREDOC's jwt.expireDays). */
  jwtExpireDays?: number;
  /** CONFIG_<CATEGORY>_<KEY>=value, applied when the config row is first created (PUBLIC_ORIGIN: system.domain). */
  configPresets: Record<string, Record<string, string>>;
  logLevel: string;
  /** Where the social sign-in providers are reached (docs/api.md §5). */
  oauth: OAuthConfig;
  /** Document conversion (CONVERT_*, LIBREOFFICE_PATH, CALIBRE_PATH). */
  convert: ConvertConfig;
  /** The job queue (JOB_*). */
  jobs: JobsConfig;
  /** Where the payment providers are reached (docs/api.md §4). */
  payment: PaymentEndpoints;
  /** Where the SMS clouds are reached (docs/api.md §4). */
  sms: SmsEndpoints;
  /** BUILD_HASH / BUILD_AT: the build GetStats reports, over what it finds (platform/build-info.ts). */
  build: Partial<BuildInfo>;
  /** S3_*: the bucket that holds the files; absent (no S3_BUCKET) = the local disk under DATA_DIR. */
  s3?: S3BlobStoreOptions;
  /**
   * S3_CACHE_MB in bytes: the in-process cache of small blobs (pages) read from the bucket
   * (platform/blobs/cached-blob-store.ts); 0 = none. Only with `s3`.
   */
  s3CacheBytes?: number;
  /** BODY_TIMEOUT_MS: how long a request body may take (an upload's: between two chunks) before a 408; default 30 s. */
  bodyTimeoutMs: number;
  /**
   * START_RETRY_MS: the first wait before a start whose PostgreSQL or S3 bucket is away is tried again; the next
   * are twice and five times it (backend/platform/engine-away.ts; default 1 s).
   */
  startRetryMs: number;
  /**
   * BACKEND_TRUST_PROXY: the proxies whose X-Forwarded-For is believed (Fastify trustProxy:
   * true, or addresses/CIDRs); default none, the client address is the peer's.
   */
  trustProxy: boolean | string[];
  /** DATABASE_URL / DATABASE_POOL_SIZE: PostgreSQL; null = SQLite in DATA_DIR (moredoc.db). */
  database: PostgresConfig | null;
  /**
   * SIGN_IN_LIMIT: tries per minute, client address and sign-in endpoint, across every process (default 10; 0 = none).
   */
  signInLimit: SignInLimitSetting;
  /**
   * SEARCH_RECORD_LIMIT: searches recorded per minute and client address, across every process (default 30; 0 = all);
   * the searches past it are answered, not recorded.
   */
  searchRecordLimit: number;
  /**
   * CLIENT_IPV6_PREFIX: the prefix length (32-64, default 64) by which every per-address limit counts an IPv6 client
   * (shared/address-key.ts addressKey).
   */
  ipv6Prefix: number;
  /**
   * RUN_JOBS (default true): this process claims and runs jobs (conversion, sitemaps, expiry,
   * clean-ups). false: a web instance that only enqueues them, for `npm run worker` to run.
   */
  runJobs: boolean;
}

export interface PostgresConfig {
  /** postgres:// or postgresql:// URL, as given (pg reads sslmode and the rest from it). */
  url: string;
  /** The URL with its password masked, for messages and logs. */
  label: string;
  /** DATABASE_POOL_SIZE: connections at most (default 10). */
  poolSize: number;
}

export interface ConvertConfig {
  /** CONVERT_WORKERS: MuPDF worker threads; default one per core but one (at least one). */
  workers: number;
  /** CONVERT_JOBS: documents converted at once (default 2). */
  jobs: number;
  /** CONVERT_TIMEOUT_MS: time limit of one document; null = the admin's `converter.timeout` minutes. */
  timeoutMs: number | null;
  /** CONVERT_PAGE_TIMEOUT_MS: time limit of one MuPDF step (opening a document, drawing a page), default 60 s. */
  pageTimeoutMs: number;
  /** CONVERT_MAX_PAGES: documents with more pages fail (default 10,000). */
  maxPages: number;
  /** CONVERT_NICE: added to the MuPDF threads' nice value, so that requests come first (default 10; 0 = none). */
  nice: number;
  /** LIBREOFFICE_PATH / CALIBRE_PATH: a path, undefined = searched, null (`off`) = never used. */
  libreofficePath?: string | null;
  calibrePath?: string | null;
}

export interface JobsConfig {
  /**
   * JOB_LEASE_MS: how long a claim on a job lasts unless renewed; a dead process's jobs wait that long (default 30 s).
   */
  leaseMs: number;
  /** JOB_POLL_MS: how often the queue looks for jobs that became due (default 1 s). */
  pollIntervalMs: number;
}

const OAUTH_DEFAULTS: Record<OAuthProviderName, OAuthProviderEndpoints> = {
  wechat: { authorizeUrl: 'https://open.weixin.qq.com', apiUrl: 'https://api.weixin.qq.com' },
  qq: { authorizeUrl: 'https://graph.qq.com', apiUrl: 'https://graph.qq.com' },
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const BOOL_VALUES = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];

function parsePort(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`BACKEND_PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return Number(raw);
}

function parsePresets(env: Record<string, string | undefined>): BackendConfig['configPresets'] {
  const presets: BackendConfig['configPresets'] = {};
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith('CONFIG_') || value === undefined) continue;
    const rest = variable.slice('CONFIG_'.length).toLowerCase();
    const cut = rest.indexOf('_');
    const categoryName = cut > 0 ? rest.slice(0, cut) : rest;
    const key = cut > 0 ? rest.slice(cut + 1) : '';
    const def = findConfigKey(categoryName, key);
    if (!def) {
      throw new ConfigError(
        `${variable} does not name a known config key (expected CONFIG_<CATEGORY>_<KEY>, e.g. CONFIG_SECURITY_ENABLE_REGISTER)`,
      );
    }
    if (def.input_type === 'switch' && !BOOL_VALUES.includes(value)) {
      throw new ConfigError(`${variable} must be true or false, got "${value}"`);
    }
    if (def.input_type === 'number' && !/^-?\d+$/.test(value.trim())) {
      throw new ConfigError(`${variable} must be an integer, got "${value}"`);
    }
    // The rules the admin's form and PUT /api/v1/config apply; their messages are the admin's.
    const problem = configValueProblem(`${categoryName}.${key}`, def.input_type, value);
    if (problem) throw new ConfigError(`${variable} is refused: ${def.label}${problem}, got "${value}"`);
    (presets[categoryName] ??= {})[key] = value;
  }
  // The site's address the gateway is told (PUBLIC_ORIGIN) is its first 网站域名.
  const publicOrigin = env.PUBLIC_ORIGIN?.trim();
  if (publicOrigin && presets.system?.domain === undefined) {
    if (configValueProblem('system.domain', 'text', publicOrigin))
      throw new ConfigError(`PUBLIC_ORIGIN must be an origin like https://docs.example.com, got "${publicOrigin}"`);
    (presets.system ??= {}).domain = publicOrigin;
  }
  return presets;
}

/** An http(s) base URL without query or fragment; the trailing slash is dropped. */
function parseBaseUrl(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim() || fallback;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || /[?#]/.test(value) || url.username || url.password) {
    throw new ConfigError(
      `${variable} must be an http(s) URL without query, fragment or credentials, e.g. ${fallback}, got "${value}"`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseOAuth(env: Record<string, string | undefined>): OAuthConfig {
  const endpoints = (name: OAuthProviderName): OAuthProviderEndpoints => {
    const prefix = `OAUTH_${name.toUpperCase()}`;
    return {
      authorizeUrl: parseBaseUrl(
        `${prefix}_AUTHORIZE_URL`,
        env[`${prefix}_AUTHORIZE_URL`],
        OAUTH_DEFAULTS[name].authorizeUrl,
      ),
      apiUrl: parseBaseUrl(`${prefix}_API_URL`, env[`${prefix}_API_URL`], OAUTH_DEFAULTS[name].apiUrl),
    };
  };
  const timeoutRaw = env.OAUTH_TIMEOUT_MS?.trim() || '10000';
  if (!/^\d+$/.test(timeoutRaw) || Number(timeoutRaw) < 100 || Number(timeoutRaw) > 120_000) {
    throw new ConfigError(`OAUTH_TIMEOUT_MS must be an integer between 100 and 120000, got "${timeoutRaw}"`);
  }
  return { wechat: endpoints('wechat'), qq: endpoints('qq'), timeoutMs: Number(timeoutRaw) };
}

function parseInteger(variable: string, raw: string | undefined, min: number, max: number): number | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${variable} must be an integer between ${min} and ${max}, got "${value}"`);
  }
  return Number(value);
}

function parseToolPath(raw: string | undefined): string | null | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  return ['off', 'none', 'false', '0'].includes(value.toLowerCase()) ? null : path.resolve(value);
}

function parseConvert(env: Record<string, string | undefined>): ConvertConfig {
  const convert: ConvertConfig = {
    // One core stays with the requests: the site answers while a document converts (bench/README.md).
    workers: parseInteger('CONVERT_WORKERS', env.CONVERT_WORKERS, 1, 64) ?? Math.max(1, os.availableParallelism() - 1),
    jobs: parseInteger('CONVERT_JOBS', env.CONVERT_JOBS, 1, 16) ?? 2,
    timeoutMs: parseInteger('CONVERT_TIMEOUT_MS', env.CONVERT_TIMEOUT_MS, 1000, 24 * 3600_000) ?? null,
    pageTimeoutMs: parseInteger('CONVERT_PAGE_TIMEOUT_MS', env.CONVERT_PAGE_TIMEOUT_MS, 1000, 3600_000) ?? 60_000,
    maxPages: parseInteger('CONVERT_MAX_PAGES', env.CONVERT_MAX_PAGES, 1, 100_000) ?? 10_000,
    // The threads share the process with the gateway: on Linux each thread has its own nice
    // value, and at 10 the scheduler gives a request's thread about nine tenths of a busy core.
    nice: parseInteger('CONVERT_NICE', env.CONVERT_NICE, 0, 19) ?? 10,
  };
  const libreoffice = parseToolPath(env.LIBREOFFICE_PATH);
  if (libreoffice !== undefined) convert.libreofficePath = libreoffice;
  const calibre = parseToolPath(env.CALIBRE_PATH);
  if (calibre !== undefined) convert.calibrePath = calibre;
  return convert;
}

function parsePayment(env: Record<string, string | undefined>): PaymentEndpoints {
  const alipay = env.PAY_ALIPAY_GATEWAY_URL?.trim();
  const timeoutRaw = env.PAY_TIMEOUT_MS?.trim() || '10000';
  if (!/^\d+$/.test(timeoutRaw) || Number(timeoutRaw) < 100 || Number(timeoutRaw) > 120_000) {
    throw new ConfigError(`PAY_TIMEOUT_MS must be an integer between 100 and 120000, got "${timeoutRaw}"`);
  }
  return {
    alipayGatewayUrl: alipay
      ? parseBaseUrl('PAY_ALIPAY_GATEWAY_URL', alipay, 'https://openapi.alipay.com/gateway.do')
      : null,
    wechatApiUrl: parseBaseUrl('PAY_WECHAT_API_URL', env.PAY_WECHAT_API_URL, 'https://api.mch.weixin.qq.com'),
    timeoutMs: Number(timeoutRaw),
  };
}

/** An http(s) origin: the signed SMS requests go to its path `/`. */
function parseOrigin(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim() || fallback;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/+$/, '')) {
    throw new ConfigError(
      `${variable} must be an http(s) origin without path, query or credentials, e.g. ${fallback}, got "${value}"`,
    );
  }
  return url.origin;
}

function parseSms(env: Record<string, string | undefined>): SmsEndpoints {
  const timeoutRaw = env.SMS_TIMEOUT_MS?.trim() || '10000';
  if (!/^\d+$/.test(timeoutRaw) || Number(timeoutRaw) < 100 || Number(timeoutRaw) > 120_000) {
    throw new ConfigError(`SMS_TIMEOUT_MS must be an integer between 100 and 120000, got "${timeoutRaw}"`);
  }
  return {
    aliyun: parseOrigin('SMS_ALIYUN_ENDPOINT', env.SMS_ALIYUN_ENDPOINT, 'https://dysmsapi.aliyuncs.com'),
    tencent: parseOrigin('SMS_TENCENT_ENDPOINT', env.SMS_TENCENT_ENDPOINT, 'https://sms.tencentcloudapi.com'),
    timeoutMs: Number(timeoutRaw),
  };
}

/** S3_CACHE_MB's default: some hundreds of pages of a few dozen KiB each. */
const DEFAULT_S3_CACHE_MB = 32;

/** How long a presigned download URL (S3_PRESIGNED_DOWNLOADS) works: enough to follow the redirect. */
const PRESIGNED_DOWNLOAD_SECONDS = 300;

function parseSwitch(variable: string, raw: string | undefined, fallback = false): boolean {
  const value = raw?.trim();
  if (!value) return fallback;
  if (!BOOL_VALUES.includes(value)) throw new ConfigError(`${variable} must be true or false, got "${value}"`);
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

function parseS3(env: Record<string, string | undefined>): S3BlobStoreOptions | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    const stray = [
      'S3_ENDPOINT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_PREFIX',
      'S3_PRESIGNED_DOWNLOADS',
      'S3_CACHE_MB',
    ].find((variable) => env[variable]?.trim());
    if (stray)
      throw new ConfigError(`S3_BUCKET must be set when ${stray} is (without S3_BUCKET the files stay under DATA_DIR)`);
    return undefined;
  }
  if (!/^[A-Za-z0-9][\w.-]{1,254}$/.test(bucket))
    throw new ConfigError(`S3_BUCKET must be a bucket name (letters, digits, dots, hyphens), got "${bucket}"`);
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(region))
    throw new ConfigError(`S3_REGION must be a region name like us-east-1 or cn-north-1, got "${region}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS_* variables or the instance role',
    );
  }
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  try {
    if (prefix) assertBlobKey(prefix);
  } catch {
    throw new ConfigError(
      `S3_PREFIX must be a folder name like moredoc or sites/docs (no empty, . or .. segment), got "${env.S3_PREFIX}"`,
    );
  }
  return {
    bucket,
    region,
    ...(env.S3_ENDPOINT?.trim()
      ? { endpoint: parseBaseUrl('S3_ENDPOINT', env.S3_ENDPOINT, 'http://127.0.0.1:9000') }
      : {}),
    ...(accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : {}),
    forcePathStyle: parseSwitch('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE),
    prefix: prefix ? `${prefix}/` : '',
    presignedSeconds: parseSwitch('S3_PRESIGNED_DOWNLOADS', env.S3_PRESIGNED_DOWNLOADS)
      ? PRESIGNED_DOWNLOAD_SECONDS
      : 0,
  };
}

const CIDR = /^(.+)\/(\d{1,3})$/;

/** `true`, `false`, or a comma-separated list of addresses and CIDRs (no hop counts). */
function parseTrustProxy(raw: string | undefined): boolean | string[] {
  const value = raw?.trim() ?? '';
  const lower = value.toLowerCase();
  if (['', 'false', '0', 'no'].includes(lower)) return false;
  if (['true', 'yes'].includes(lower)) return true;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const cidr = CIDR.exec(entry);
    const family = isIP(cidr ? cidr[1]! : entry);
    if (family === 0 || (cidr && Number(cidr[2]) > (family === 4 ? 32 : 128))) {
      throw new ConfigError(
        `BACKEND_TRUST_PROXY must be true, false or a comma-separated list of IP addresses or CIDRs like "10.0.0.0/8,127.0.0.1", got "${entry}"`,
      );
    }
  }
  return entries;
}

/** What pg 8 understands of `sslmode` (libpq's `allow` it does not know). */
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/** A PostgreSQL URL with the password replaced, so that it can be shown. */
export function maskedDatabaseUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password) shown.password = '***';
  return shown.href;
}

function parseDatabase(env: Record<string, string | undefined>): PostgresConfig | null {
  const raw = env.DATABASE_URL?.trim();
  const poolRaw = env.DATABASE_POOL_SIZE?.trim();
  if (!raw) return null;
  const example = 'postgres://user:password@host:5432/database';
  // The value may carry a password: an unreadable one is never echoed. `user@/db?host=/socket`
  // has no host for WHATWG's parser; pg reads it with a stand-in host, and so does this check.
  const parseable = URL.canParse(raw) ? raw : raw.replace('@/', '@localhost/');
  const url = URL.canParse(parseable) ? new URL(parseable) : undefined;
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol)) {
    throw new ConfigError(
      `DATABASE_URL must be a PostgreSQL URL like ${example} (the value given is not shown: it may hold a password)`,
    );
  }
  const label = parseable === raw ? maskedDatabaseUrl(url) : maskedDatabaseUrl(url).replace('@localhost/', '@/');
  if (parseable !== raw && !url.searchParams.get('host'))
    throw new ConfigError(`DATABASE_URL names no host, e.g. ${example}`);
  if (!url.hostname && !url.searchParams.get('host'))
    throw new ConfigError(`DATABASE_URL names no host, e.g. ${example}, got "${label}"`);
  if (url.pathname.length <= 1)
    throw new ConfigError(`DATABASE_URL names no database, e.g. ${example}, got "${label}"`);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) {
    throw new ConfigError(`DATABASE_URL has sslmode=${sslmode}, which is none of ${SSL_MODES.join(', ')}`);
  }
  return { url: raw, label, poolSize: parseInteger('DATABASE_POOL_SIZE', poolRaw, 1, 1000) ?? 10 };
}

/** A PostgreSQL URL checked as DATABASE_URL is (scripts/db-copy.ts takes one in --to). */
export function parseDatabaseUrl(raw: string): PostgresConfig {
  return parseDatabase({ DATABASE_URL: raw })!;
}

export function loadBackendConfig(env: Record<string, string | undefined>): BackendConfig {
  const host = env.BACKEND_HOST?.trim() || '127.0.0.1';
  const port = parsePort(env.BACKEND_PORT?.trim() || '8880');
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && (jwtSecret.length < 16 || jwtSecret === 'moredoc')) {
    throw new ConfigError(
      'JWT_SECRET must be at least 16 characters long (leave it unset to generate one into the database)',
    );
  }
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  // The rule the login applies: a password it refuses would make an admin who cannot sign in.
  if (adminPassword !== undefined && passwordProblems(adminPassword).length > 0) {
    throw new ConfigError(
      `ADMIN_PASSWORD must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters long, as the login takes them`,
    );
  }
  const expireRaw = env.JWT_EXPIRE_DAYS?.trim() || '365';
  if (!/^\d+$/.test(expireRaw) || Number(expireRaw) < 1 || Number(expireRaw) > 3650) {
    throw new ConfigError(`JWT_EXPIRE_DAYS must be an integer between 1 and 3650, got "${expireRaw}"`);
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const config: BackendConfig = {
    host,
    port,
    dataDir,
    jwtExpireDays: Number(expireRaw),
    configPresets: parsePresets(env),
    logLevel,
    oauth: parseOAuth(env),
    sms: parseSms(env),
    convert: parseConvert(env),
    jobs: {
      leaseMs: parseInteger('JOB_LEASE_MS', env.JOB_LEASE_MS, 1000, 3_600_000) ?? 30_000,
      pollIntervalMs: parseInteger('JOB_POLL_MS', env.JOB_POLL_MS, 10, 60_000) ?? 1000,
    },
    payment: parsePayment(env),
    bodyTimeoutMs: parseInteger('BODY_TIMEOUT_MS', env.BODY_TIMEOUT_MS, 1, 3_600_000) ?? 30_000,
    startRetryMs: parseInteger('START_RETRY_MS', env.START_RETRY_MS, 10, 60_000) ?? START_RETRY_FIRST_MS,
    trustProxy: parseTrustProxy(env.BACKEND_TRUST_PROXY),
    database: parseDatabase(env),
    signInLimit: { max: parseInteger('SIGN_IN_LIMIT', env.SIGN_IN_LIMIT, 0, 1_000_000) ?? 10, windowMs: 60_000 },
    searchRecordLimit: parseInteger('SEARCH_RECORD_LIMIT', env.SEARCH_RECORD_LIMIT, 0, 1_000_000) ?? 30,
    ipv6Prefix:
      parseInteger('CLIENT_IPV6_PREFIX', env.CLIENT_IPV6_PREFIX, IPV6_PREFIX.min, IPV6_PREFIX.max) ??
      IPV6_PREFIX.default,
    runJobs: parseSwitch('RUN_JOBS', env.RUN_JOBS, true),
    build: {
      ...(env.BUILD_HASH?.trim() ? { hash: env.BUILD_HASH.trim() } : {}),
      ...(env.BUILD_AT?.trim() ? { build_at: env.BUILD_AT.trim() } : {}),
    },
  };
  const s3 = parseS3(env);
  if (s3) {
    config.s3 = s3;
    config.s3CacheBytes = (parseInteger('S3_CACHE_MB', env.S3_CACHE_MB, 0, 4096) ?? DEFAULT_S3_CACHE_MB) * 1024 * 1024;
  }
  if (jwtSecret !== undefined) config.jwtSecret = jwtSecret;
  if (adminPassword !== undefined) config.adminPassword = adminPassword;
  return config;
}

/** Where a backend so configured keeps what it has, as its start lines say it. */
export interface StoragePlaces {
  /** the tables, and the signing keys generated into them (table `secret`) */
  database: string;
  /** uploads, documents and their pages, sitemaps */
  files: string;
  /** the conversions' scratch folders */
  scratch: string;
}

/**
 * DATA_DIR holds only what neither DATABASE_URL nor S3_BUCKET took away: with both set it holds
 * nothing, so a start line saying "data in DATA_DIR" would send an operator to back up the wrong place.
 */
export function storagePlaces(config: Pick<BackendConfig, 'dataDir' | 'database' | 's3'>): StoragePlaces {
  const s3 = config.s3;
  return {
    database: config.database?.label ?? `SQLite ${path.join(config.dataDir, 'moredoc.db')}`,
    files: s3 ? `bucket ${s3.bucket}${s3.prefix ? ` under ${s3.prefix}` : ''}` : config.dataDir,
    scratch: scratchRoot(),
  };
}

/** The places in one line (`npm run backend`, the worker). */
export function storageLine(places: StoragePlaces): string {
  return `database ${places.database}, files in ${places.files}, scratch in ${places.scratch}`;
}
