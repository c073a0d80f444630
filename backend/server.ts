import closeWithGrace from 'close-with-grace';
import { ConfigError, loadBackendConfig } from './config';
import { buildBackend } from './app';
import { DatabaseStartError } from './db';

// `npm run backend`: the embedded backend on its own. Reads the environment once, listens,
// prints where it listens (and the admin credentials on the first start), closes gracefully.

async function main(): Promise<void> {
  let config;
  let app;
  try {
    config = loadBackendConfig(process.env);
    // Building checks what only a try can (the S3 bucket), with the same one-line answer.
    app = await buildBackend(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    // An unreachable database server or a refused login: one line naming DATABASE_URL, no stack.
    if (error instanceof DatabaseStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else if (signal) app.log.info(`received ${signal}, closing`);
    await app.close();
  });
  const address = await app.listen({ host: config.host, port: config.port });
  const database = config.database ? `, database ${config.database.label}` : '';
  console.log(`MOREDOC-compatible backend listening on ${address} (data in ${config.dataDir}${database})`);
  const admin = app.initialAdmin;
  if (admin) {
    console.log(admin.generated
      ? `Created the administrator account: username "${admin.username}", password "${admin.password}" (shown only once, change it after logging in)`
      : `Created the administrator account "${admin.username}" with the password from ADMIN_PASSWORD`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
