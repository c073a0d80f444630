import { ConfigError, loadBackendConfig, type BackendConfig } from './config';
import { buildBackend } from './app';
import { DatabaseStartError } from './db';
import { closeGracefully } from './platform/graceful-close';
import { startWhenReachable } from './platform/engine-away';
import { boundHeapGrowth } from './platform/heap';

// What `npm run backend` (server.ts) and `npm run worker` (worker.ts) do alike: read the
// environment once, build the backend (which checks what only a try can: the database, the S3
// bucket), answer a bad setting with one line and exit 1, wait for PostgreSQL or the bucket
// while it is away (backend/platform/engine-away.ts), and close gracefully on SIGINT/SIGTERM
// (10 s; backend/platform/graceful-close.ts).

const awayName = { database: 'PostgreSQL', blobs: 'the S3 bucket' } as const;

export async function startBackendProcess(adjust: (config: BackendConfig) => BackendConfig = (config) => config) {
  boundHeapGrowth();
  let config;
  let app;
  try {
    config = adjust(loadBackendConfig(process.env));
    const settings = config;
    // PostgreSQL or the bucket away: one line a try, and the start goes on once it answers.
    app = await startWhenReachable(
      () => buildBackend(settings),
      (away, retryMs) =>
        console.error(`Waiting for ${awayName[away.engine]}: ${away.message}; trying again in ${retryMs / 1000} s`),
      { firstRetryMs: settings.startRetryMs },
    );
  } catch (error) {
    // A bad value, an unreachable database server or a refused login: one line, no stack.
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    if (error instanceof DatabaseStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  closeGracefully({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else if (signal) app.log.info(`received ${signal}, closing`);
    await app.close();
  });
  return { config, app };
}

/**
 * What `npm run backend` and a worker say of the admin account their start created (the first
 * process on a new database does, whichever it is): a generated password is printed now or never.
 */
export function createdAdminLine(admin: { username: string; password: string; generated: boolean }): string {
  return admin.generated
    ? `Created the administrator account: username "${admin.username}", password "${admin.password}" (shown only once, change it after logging in)`
    : `Created the administrator account "${admin.username}" with the password from ADMIN_PASSWORD`;
}

/** The process's last word on an error nothing else caught. */
export function exitOnError(error: unknown): never {
  console.error(error);
  process.exit(1);
}
