import { storageLine, storagePlaces } from './config';
import { createdAdminLine, exitOnError, startBackendProcess } from './process';

// `npm run worker`: the same backend without HTTP. It opens the database and the store, runs
// the seed and registers every module's jobs as a web instance does (buildBackend), but never
// listens: it claims and runs the jobs (conversion, sitemaps, expiry, clean-ups) that the web
// instances (RUN_JOBS=false) enqueue. SIGTERM stops claiming, lets running jobs end within the
// queue's grace, and exits; a job cut short is taken up again by another worker when its
// lease (JOB_LEASE_MS) expires.

async function main(): Promise<void> {
  // A worker runs jobs whatever RUN_JOBS says: that is all it is for.
  const { config, app } = await startBackendProcess((config) => ({ ...config, runJobs: true }));
  // Runs the modules' start hooks and starts the job queue (the app's onReady), without a port.
  await app.ready();
  // A worker that starts before any web instance on a new database creates the admin account; said first, as the
  // running line is the start's last word, which whoever waits for it reads everything by.
  if (app.initialAdmin) console.log(createdAdminLine(app.initialAdmin));
  console.log(`MOREDOC-compatible worker running jobs (pid ${process.pid}, ${storageLine(storagePlaces(config))})`);
}

main().catch(exitOnError);
