// With no BACKEND_URL the gateway runs the embedded backend itself, on a loopback port,
// with its data under DATA_DIR, and stops it on shutdown. Besides its URL, the backend
// hands over its page and cover answers (gateway/view-files.ts), which the gateway serves
// in process.
import type { FastifyServerOptions } from 'fastify';
import { buildBackend, type BuildBackendOptions } from '../backend/app';
import { loadBackendConfig } from '../backend/config';
import type { ViewFiles } from './view-files';

export interface EmbeddedBackend {
  url: string;
  /** the admin account created by this start (first start only), else null */
  initialAdmin: { username: string; password: string; generated: boolean } | null;
  /** its page and cover answers, for the gateway in this process to serve without HTTP */
  viewFiles: ViewFiles;
  close(): Promise<void>;
}

/**
 * `env` is the process environment (DATA_DIR, JWT_SECRET, ADMIN_PASSWORD, CONFIG_*, …).
 * The backend always listens on 127.0.0.1; BACKEND_PORT picks the port, default a free one.
 * Throws the backend's ConfigError for a bad value. `build`: buildBackend's options (tests).
 */
export async function startEmbeddedBackend(
  env: Record<string, string | undefined>,
  logger?: FastifyServerOptions['logger'],
  build: Omit<BuildBackendOptions, 'logger'> = {},
): Promise<EmbeddedBackend> {
  const config = loadBackendConfig({ ...env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: env.BACKEND_PORT?.trim() || '0' });
  const app = await buildBackend(config, { ...build, logger: logger ?? false });
  const url = await app.listen({ host: config.host, port: config.port });
  return { url, initialAdmin: app.initialAdmin, viewFiles: app.viewFiles, close: () => app.close() };
}
