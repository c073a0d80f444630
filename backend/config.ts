import os from 'node:os';
import path from 'node:path';
import { configValueProblem } from '../shared/config-rules';
import { findConfigKey } from './modules/config/keys';
import type { BuildInfo } from './platform/build-info';
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
}

export interface ConvertConfig {
  /** CONVERT_WORKERS: MuPDF worker threads; default one per core but one (at least one). */
  workers: number;
  /** CONVERT_JOBS: documents converted at once (default 2). */
  jobs: number;
  /** CONVERT_TIMEOUT_MS: time limit of one document; null = the admin's `converter.timeout` minutes. */
  timeoutMs: number | null;
  /** CONVERT_MAX_PAGES: documents with more pages fail (default 10,000). */
  maxPages: number;
  /** CONVERT_NICE: added to the MuPDF threads' nice value, so that requests come first (default 10; 0 = none). */
  nice: number;
  /** LIBREOFFICE_PATH / CALIBRE_PATH: a path, undefined = searched, null (`off`) = never used. */
  libreofficePath?: string | null;
  calibrePath?: string | null;
}

export interface JobsConfig {
  /** JOB_LEASE_MS: how long a claim on a job lasts unless renewed; a dead process's jobs wait that long (default 30 s). */
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
      throw new ConfigError(`${variable} does not name a known config key (expected CONFIG_<CATEGORY>_<KEY>, e.g. CONFIG_SECURITY_ENABLE_REGISTER)`);
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
    if (configValueProblem('system.domain', 'text', publicOrigin)) throw new ConfigError(`PUBLIC_ORIGIN must be an origin like https://docs.example.com, got "${publicOrigin}"`);
    (presets.system ??= {}).domain = publicOrigin;
  }
  return presets;
}

/** An http(s) base URL without query or fragment; the trailing slash is dropped. */
function parseBaseUrl(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim() || fallback;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || /[?#]/.test(value) || url.username || url.password) {
    throw new ConfigError(`${variable} must be an http(s) URL without query, fragment or credentials, e.g. ${fallback}, got "${value}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseOAuth(env: Record<string, string | undefined>): OAuthConfig {
  const endpoints = (name: OAuthProviderName): OAuthProviderEndpoints => {
    const prefix = `OAUTH_${name.toUpperCase()}`;
    return {
      authorizeUrl: parseBaseUrl(`${prefix}_AUTHORIZE_URL`, env[`${prefix}_AUTHORIZE_URL`], OAUTH_DEFAULTS[name].authorizeUrl),
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
    alipayGatewayUrl: alipay ? parseBaseUrl('PAY_ALIPAY_GATEWAY_URL', alipay, 'https://openapi.alipay.com/gateway.do') : null,
    wechatApiUrl: parseBaseUrl('PAY_WECHAT_API_URL', env.PAY_WECHAT_API_URL, 'https://api.mch.weixin.qq.com'),
    timeoutMs: Number(timeoutRaw),
  };
}

/** An http(s) origin: the signed SMS requests go to its path `/`. */
function parseOrigin(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim() || fallback;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/+$/, '')) {
    throw new ConfigError(`${variable} must be an http(s) origin without path, query or credentials, e.g. ${fallback}, got "${value}"`);
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

export function loadBackendConfig(env: Record<string, string | undefined>): BackendConfig {
  const host = env.BACKEND_HOST?.trim() || '127.0.0.1';
  const port = parsePort(env.BACKEND_PORT?.trim() || '8880');
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && (jwtSecret.length < 16 || jwtSecret === 'moredoc')) {
    throw new ConfigError('JWT_SECRET must be at least 16 characters long (leave it unset to generate one into DATA_DIR)');
  }
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 6) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 6 characters long');
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
    host, port, dataDir, jwtExpireDays: Number(expireRaw), configPresets: parsePresets(env), logLevel, oauth: parseOAuth(env), sms: parseSms(env),
    convert: parseConvert(env),
    jobs: {
      leaseMs: parseInteger('JOB_LEASE_MS', env.JOB_LEASE_MS, 1000, 3_600_000) ?? 30_000,
      pollIntervalMs: parseInteger('JOB_POLL_MS', env.JOB_POLL_MS, 10, 60_000) ?? 1000,
    },
    payment: parsePayment(env),
    build: {
      ...(env.BUILD_HASH?.trim() ? { hash: env.BUILD_HASH.trim() } : {}),
      ...(env.BUILD_AT?.trim() ? { build_at: env.BUILD_AT.trim() } : {}),
    },
  };
  if (jwtSecret !== undefined) config.jwtSecret = jwtSecret;
  if (adminPassword !== undefined) config.adminPassword = adminPassword;
  return config;
}
