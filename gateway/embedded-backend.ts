// With no BACKEND_URL the gateway runs the embedded backend itself, in its own process, with
// its data under DATA_DIR (or in PostgreSQL and S3), and stops it on shutdown. The backend listens on no port: the
// gateway hands its calls to the backend's router in process (in-process-dispatcher.ts), the
// pages and covers to its page routes (view-files.ts). Nothing else can reach it, so it needs
// no caller check, and the peer address it sees is the client address the gateway forwards.
// The backend's content changes reach the gateway's kept pages here (`backendChanges`), so
// that what a job changes (a conversion that publishes a document) shows at once; a worker in
// another process (`npm run worker`) tells no one: the pages' lifetimes bound what it changes.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Dispatcher } from 'undici';
import { buildBackend, type BuildBackendOptions } from '../backend/app';
import { loadBackendConfig, storagePlaces, type StoragePlaces } from '../backend/config';
import { InProcessDispatcher } from './in-process-dispatcher';
import type { Readable } from 'node:stream';
import type { ViewFiles } from '../shared/view-files';
import type { PageChangeFeed, PageStaleness } from './page-cache';
import type { SessionChangeFeed } from './plugins/page-guard';

/** A backend answered in this process: what the gateway is built with instead of a URL. */
export interface InProcessBackend {
  /** where the gateway dispatches its backend calls (undici's interface, as for a remote Pool) */
  dispatcher: Dispatcher;
  /** its page and cover answers */
  viewFiles: ViewFiles<Readable>;
  /** its changes of what public pages show (the gateway's BuildOptions take all four as they are) */
  backendChanges: PageChangeFeed;
  /** sessions ended or changed, told to and by every instance on its database */
  sessionChanges: SessionChangeFeed;
}

export interface EmbeddedBackend extends InProcessBackend {
  /** the admin account created by this start (first start only), else null */
  initialAdmin: { username: string; password: string; generated: boolean } | null;
  /** where its database, files and scratch folders are */
  storage: StoragePlaces;
  /** RUN_JOBS: false leaves the jobs to the workers */
  runsJobs: boolean;
  close(): Promise<void>;
}

// Every page carries the start data, whose categories count documents and articles and whose
// settings shape the lists: a change of any content the backend tells makes both stale.
const EVERYTHING: PageStaleness = Object.freeze({ publicStartData: true, routeData: true });

/** The gateway's way in to a built, ready backend in this process. */
export function inProcessBackend(app: FastifyInstance): InProcessBackend {
  return {
    dispatcher: new InProcessDispatcher(app),
    viewFiles: app.viewFiles,
    backendChanges: (listener) => app.contentChanges.subscribe(() => listener(EVERYTHING)),
    sessionChanges: app.sessionChanges,
  };
}

/**
 * `env` is the process environment (DATA_DIR, JWT_SECRET, ADMIN_PASSWORD, CONFIG_*, …).
 * Throws the backend's ConfigError for a bad value, its DatabaseStartError when DATABASE_URL
 * names a server that cannot be reached or refuses the login. `build`: buildBackend's options (tests).
 */
export async function startEmbeddedBackend(
  env: Record<string, string | undefined>,
  logger?: FastifyServerOptions['logger'],
  build: Omit<BuildBackendOptions, 'logger'> = {},
): Promise<EmbeddedBackend> {
  // BACKEND_HOST, BACKEND_PORT and BACKEND_TRUST_PROXY are for a backend run on its own.
  const config = loadBackendConfig({ ...env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: '0', BACKEND_TRUST_PROXY: '' });
  const app = await buildBackend(config, { ...build, logger: logger ?? false });
  await app.ready();
  return {
    ...inProcessBackend(app),
    initialAdmin: app.initialAdmin,
    storage: storagePlaces(config),
    runsJobs: config.runJobs,
    close: () => app.close(),
  };
}
