// The gateway process: configuration from the environment (exit 1 on a bad value), the
// embedded backend unless BACKEND_URL is set, listen, and a graceful shutdown on SIGTERM/
// SIGINT in which in-flight requests finish.
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeGracefully } from '../backend/platform/graceful-close';
import { boundHeapGrowth } from '../backend/platform/heap';
import { buildGateway } from './app';
import { loadGatewayConfig, type GatewayConfig, type LogLevel } from './config';
import type { EmbeddedBackend } from './embedded-backend';
import { loggerOptions, textLogStream } from './logging';

const SHUTDOWN_GRACE_MS = 10_000;
/**
 * After the port closed: how long a connection without a request may still bring one (a loaded machine may take a while
 * to read what was accepted).
 */
const IDLE_CLOSE_MS = 2000;
const LOOPBACK_OR_ANY = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::']);
/** Errors of binding HOST:PORT (a port taken or reserved, an address not this machine's or not found): they name both. */
const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN']);

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

/**
 * Closes the listening socket (new connections are refused, so a load balancer sends them to
 * another instance) and waits, at most `ms`, for the open connections to finish their
 * requests; the gateway answers `Connection: close` once the port is closed. net.Server's
 * close, not http.Server's: that one also drops every connection without a request under
 * way, among them those just accepted whose request is not read yet - requests a load
 * balancer has sent here and will not send elsewhere if they are writes. Keep-alive
 * connections still idle a moment later are closed then.
 */
function stopAccepting(server: Server, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const idle = setTimeout(() => server.closeIdleConnections(), IDLE_CLOSE_MS);
    const timer = setTimeout(resolve, ms);
    net.Server.prototype.close.call(server, () => {
      clearTimeout(idle);
      clearTimeout(timer);
      resolve();
    });
  });
}

function isConfigError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ConfigError';
}

/** The embedded backend's database refused or is not there (its message names DATABASE_URL). */
function isDatabaseStartError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'DatabaseStartError';
}

function siteUrl(config: GatewayConfig, port: number): string {
  const host = LOOPBACK_OR_ANY.has(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${port}`;
}

export async function main(env: Record<string, string | undefined> = process.env): Promise<void> {
  boundHeapGrowth();
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig(env);
  } catch (error) {
    if (isConfigError(error)) fail(error.message);
    throw error;
  }

  const logStream = config.logFormat === 'text' ? textLogStream() : undefined;
  let embedded: EmbeddedBackend | undefined;
  if (config.backendUrl === undefined) {
    try {
      // loaded only when used: a gateway in front of another backend does not load SQLite
      const { startEmbeddedBackend } = await import('./embedded-backend');
      const backendLevel = embeddedBackendLogLevel(config.logLevel);
      embedded = await startEmbeddedBackend(
        { ...env, DATA_DIR: config.dataDir, LOG_LEVEL: backendLevel },
        { ...loggerOptions(backendLevel, logStream), name: 'backend' },
      );
    } catch (error) {
      if (isConfigError(error)) fail(`Invalid embedded backend configuration: ${error.message}`);
      if (isDatabaseStartError(error)) fail(`The embedded backend could not start: ${error.message}`);
      throw error;
    }
  }

  const app = buildGateway(config, {
    viewFiles: embedded?.viewFiles,
    dispatcher: embedded?.dispatcher,
    backendChanges: embedded?.backendChanges,
    sessionChanges: embedded?.sessionChanges,
    logStream,
  });

  let listening: Promise<unknown> = Promise.resolve();
  let stopping = false;
  closeGracefully({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    stopping = true;
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // A signal during the start waits for its last address to be bound: Fastify binds the other
    // addresses of `localhost` after the first, and finding that one closed meanwhile was a crash.
    await listening.catch(() => undefined);
    // The port closes first and the requests already here are answered as usual; only then
    // does Fastify close (it answers 503 to any request that still comes on an open connection).
    // Fastify alone would mark itself closing before closing the port: a load balancer's
    // request that got in meanwhile was answered 503 instead of going to another instance.
    await stopAccepting(app.server, SHUTDOWN_GRACE_MS / 2);
    await app.close();
    await embedded?.close();
  });

  try {
    listening = app.listen({ port: config.port, host: config.host });
    await listening;
  } catch (error) {
    await embedded?.close();
    const reason = error instanceof Error ? error.message : String(error);
    const where = LISTEN_ERRORS.has((error as NodeJS.ErrnoException).code ?? '')
      ? ` on ${config.host}:${config.port} (HOST, PORT)`
      : '';
    // The embedded backend made the admin account before the port was refused: its generated
    // password is said now, or never (the next start finds the account and prints none).
    fail([`The gateway could not start${where}: ${reason}`, ...createdAdminLines(embedded?.initialAdmin)].join('\n'));
  }
  if (stopping) return;
  // PostgreSQL or the bucket was away at the start: the site answers meanwhile (/healthz, and
  // /readyz 503 naming what is down); the backend's own start goes on in the background.
  const waiting = embedded?.waited ?? false;
  if (embedded) {
    const backend = embedded;
    void backend.ready.then(
      () => {
        if (!waiting) return;
        app.log.info('the embedded backend is ready: the engine it waited for answers');
        const admin = backend.initialAdmin;
        if (admin)
          process.stdout.write(
            `\n${framed([...createdAdminLines(admin), ...(admin.generated ? lostPasswordHint() : [])])}\n\n`,
          );
      },
      (error: unknown) => {
        if (stopping) return;
        if (isConfigError(error)) fail(`Invalid embedded backend configuration: ${error.message}`);
        fail(`The embedded backend could not start: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  const { port } = app.server.address() as AddressInfo;
  const lines = [`moredoc-site is running at ${siteUrl(config, port)}`];
  if (config.publicOrigin) lines.push(`public origin: ${config.publicOrigin}`);
  if (embedded) {
    const { database, files, scratch } = embedded.storage;
    const jobs = embedded.runsJobs ? '' : ', jobs left to the workers (RUN_JOBS=false)';
    const wait = waiting ? ', waiting for its database or bucket (/readyz says which)' : '';
    lines.push(
      `backend: embedded${jobs}${wait}`,
      `  database: ${database} (with the generated keys)`,
      `  files: ${files}`,
      `  scratch: ${scratch}`,
    );
  } else {
    lines.push(`backend: ${config.backendUrl}`);
  }
  const admin = embedded?.initialAdmin;
  if (admin?.generated) lines.push('', ...createdAdminLines(admin), ...lostPasswordHint());
  else if (admin) lines.push('', ...createdAdminLines(admin));
  lines.push('', 'press Ctrl-C to stop the site (requests in flight finish first)');
  process.stdout.write(`\n${framed(lines)}\n\n`);
}

/** What the start says of the admin account it created: a generated password once, never one the operator chose. */
function createdAdminLines(admin: EmbeddedBackend['initialAdmin'] | undefined): string[] {
  if (!admin) return [];
  // The operator chose this password: it stays out of the output (and the logs it lands in).
  if (!admin.generated)
    return [`admin account created: username "${admin.username}", with the password set in ADMIN_PASSWORD`];
  return [
    `admin account created: username "${admin.username}", password "${admin.password}"`,
    '(the password is shown only this once: note it, then change it after logging in)',
  ];
}

/**
 * How to give the admin a new password, said as this process can run it: from the server bundle
 * (the Docker image, `npm run start:prod`) the bundled command beside it, with node (the image
 * has neither tsx nor scripts/); from source, the npm script.
 */
function lostPasswordHint(): string[] {
  const bundled = fileURLToPath(new URL('../scripts/admin-password.mjs', import.meta.url));
  if (!existsSync(bundled)) return ['(lost it? npm run admin:password gives the admin a new one)'];
  const command = `node ${relative(process.cwd(), bundled)}`;
  return [
    `(lost it? ${command} gives the admin a new one;`,
    ` in the Docker image: docker compose exec site ${command})`,
  ];
}

/**
 * The start's last words in a frame, so that the address and a generated admin password stand
 * out from the log lines before them (and are found again when scrolling back).
 */
export function framed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`  ┌${rule}┐`, ...lines.map((line) => `  │ ${line.padEnd(width)} │`), `  └${rule}┘`].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
