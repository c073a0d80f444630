// With no BACKEND_URL the gateway runs the embedded backend itself, on a loopback port,
// with its data under DATA_DIR, and stops it on shutdown. Besides its URL, the backend
// hands over its page and cover answers (gateway/view-files.ts), which the gateway serves
// in process. Every other local process can reach that port too: the backend takes requests
// that carry the secret made here, at each start, only; the gateway sends it with each of its
// calls (`backendSecret` of its config).
import crypto from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { buildBackend, type BuildBackendOptions } from '../backend/app';
import { loadBackendConfig } from '../backend/config';
import type { ViewFiles } from './view-files';

export interface EmbeddedBackend {
  url: string;
  /** what the gateway sends in GATEWAY_SECRET_HEADER: requests without it are refused (403) */
  secret: string;
  /** the admin account created by this start (first start only), else null */
  initialAdmin: { username: string; password: string; generated: boolean } | null;
  /** its page and cover answers, for the gateway in this process to serve without HTTP */
  viewFiles: ViewFiles;
  /** DATABASE_URL with its password masked, or null: SQLite in DATA_DIR */
  database: string | null;
  close(): Promise<void>;
}

/**
 * `env` is the process environment (DATA_DIR, JWT_SECRET, ADMIN_PASSWORD, CONFIG_*, …).
 * The backend always listens on 127.0.0.1; BACKEND_PORT picks the port, default a free one.
 * Throws the backend's ConfigError for a bad value, its DatabaseStartError when DATABASE_URL
 * names a server that cannot be reached or refuses the login. `build`: buildBackend's options (tests).
 */
export async function startEmbeddedBackend(
  env: Record<string, string | undefined>,
  logger?: FastifyServerOptions['logger'],
  build: Omit<BuildBackendOptions, 'logger'> = {},
): Promise<EmbeddedBackend> {
  // BACKEND_TRUST_PROXY is for a backend run on its own: this one believes its gateway only.
  const config = loadBackendConfig({ ...env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: env.BACKEND_PORT?.trim() || '0', BACKEND_TRUST_PROXY: '' });
  const secret = crypto.randomBytes(32).toString('base64url');
  const app = await buildBackend(config, { ...build, logger: logger ?? false, gatewaySecret: secret });
  const url = await app.listen({ host: config.host, port: config.port });
  return { url, secret, initialAdmin: app.initialAdmin, viewFiles: app.viewFiles, database: config.database?.label ?? null, close: () => app.close() };
}
