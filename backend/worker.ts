import closeWithGrace from 'close-with-grace';
import { ConfigError, loadBackendConfig } from './config';
import { buildBackend } from './app';
import { DatabaseStartError } from './db';

// `npm run worker`: the same backend without HTTP. It opens the database and the store, runs
// the seed and registers every module's jobs as a web instance does (buildBackend), but never
// listens: it claims and runs the jobs (conversion, sitemaps, expiry, clean-ups) that the web
// instances (RUN_JOBS=false) enqueue. SIGTERM stops claiming, lets running jobs end within the
// queue's grace, and exits; a job cut short is taken up again by another worker when its
// lease (JOB_LEASE_MS) expires.

async function main(): Promise<void> {
  let config;
  let app;
  try {
    // A worker runs jobs whatever RUN_JOBS says: that is all it is for.
    config = { ...loadBackendConfig(process.env), runJobs: true };
    app = await buildBackend(config);
  } catch (error) {
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
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else if (signal) app.log.info(`received ${signal}, closing`);
    await app.close();
  });
  // Runs the modules' start hooks and starts the job queue (the app's onReady), without a port.
  await app.ready();
  const database = config.database ? `database ${config.database.label}` : `data in ${config.dataDir}`;
  const files = config.s3 ? `, files in bucket ${config.s3.bucket}` : '';
  console.log(`MOREDOC-compatible worker running jobs (pid ${process.pid}, ${database}${files})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
