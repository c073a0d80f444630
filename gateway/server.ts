// The gateway process: configuration from the environment (exit 1 on a bad value), the
// embedded backend unless BACKEND_URL is set, listen, and a graceful shutdown on SIGTERM/
// SIGINT in which in-flight requests finish.
import closeWithGrace from 'close-with-grace';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGateway } from './app';
import { loadGatewayConfig, type GatewayConfig, type LogLevel } from './config';
import type { EmbeddedBackend } from './embedded-backend';
import { loggerOptions } from './logging';

const SHUTDOWN_GRACE_MS = 10_000;
const LOOPBACK_OR_ANY = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::']);

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * The embedded backend's level: every request it answers came through the gateway, whose
 * access line already records it, so at info it logs its faults only (warn and above).
 */
function embeddedBackendLogLevel(level: LogLevel): LogLevel {
  return level === 'info' ? 'warn' : level;
}

function isConfigError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ConfigError';
}

/** The embedded backend's database refused or is not there (its message names DATABASE_URL). */
function isDatabaseStartError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'DatabaseStartError';
}

function siteUrl(config: GatewayConfig, port: number): string {
  const host = LOOPBACK_OR_ANY.has(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

export async function main(env: Record<string, string | undefined> = process.env): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig(env);
  } catch (error) {
    if (isConfigError(error)) fail(error.message);
    throw error;
  }

  let embedded: EmbeddedBackend | undefined;
  if (config.backendUrl === undefined) {
    try {
      // loaded only when used: a gateway in front of another backend does not load SQLite
      const { startEmbeddedBackend } = await import('./embedded-backend');
      const backendLevel = embeddedBackendLogLevel(config.logLevel);
      embedded = await startEmbeddedBackend(
        { ...env, DATA_DIR: config.dataDir, LOG_LEVEL: backendLevel },
        { ...loggerOptions(backendLevel), name: 'backend' },
      );
    } catch (error) {
      if (isConfigError(error)) fail(`Invalid embedded backend configuration: ${error.message}`);
      if (isDatabaseStartError(error)) fail(`The embedded backend could not start: ${error.message}`);
      throw error;
    }
  }

  const app = buildGateway({ ...config, backendUrl: config.backendUrl ?? embedded!.url, backendSecret: embedded?.secret }, { viewFiles: embedded?.viewFiles });

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await app.close();
    await embedded?.close();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await embedded?.close();
    fail(`The gateway could not start: ${error instanceof Error ? error.message : String(error)}`);
  }

  const { port } = app.server.address() as AddressInfo;
  const lines = [``, `  moredoc-site is running at ${siteUrl(config, port)}`];
  if (config.publicOrigin) lines.push(`  public origin: ${config.publicOrigin}`);
  const database = embedded?.database ? `, database ${embedded.database}` : '';
  lines.push(`  backend: ${config.backendUrl ?? `embedded at ${embedded!.url}, data in ${config.dataDir}${database}`}`);
  const admin = embedded?.initialAdmin;
  if (admin?.generated) {
    lines.push(`  admin account created: username "${admin.username}", password "${admin.password}"`);
    lines.push('  (the password is shown only this once: note it, then change it after logging in)');
  } else if (admin) {
    // The operator chose this password: it stays out of the output (and the logs it lands in).
    lines.push(`  admin account created: username "${admin.username}", with the password set in ADMIN_PASSWORD`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
