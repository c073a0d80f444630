// With no BACKEND_URL the gateway runs the embedded backend itself, in its own process, with
// its data under DATA_DIR (or in PostgreSQL and S3), and stops it on shutdown. The backend listens on no port: the
// gateway hands its calls to the backend's router in process (in-process-dispatcher.ts), the
// pages and covers to its page routes (view-files.ts). Nothing else can reach it, so it needs
// no caller check, and the peer address it sees is the client address the gateway forwards.
// The backend's content changes reach the gateway's kept pages here (`backendChanges`), so
// that what a job changes (a conversion that publishes a document) shows at once; a worker in
// another process (`npm run worker`) tells no one: the pages' lifetimes bound what it changes.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Dispatcher } from 'undici';
import { buildBackend, type BuildBackendOptions } from '../backend/app';
import { loadBackendConfig, storagePlaces, type StoragePlaces } from '../backend/config';
import { EngineAwayError, startWhenReachable } from '../backend/platform/engine-away';
import { DATABASE_UNAVAILABLE } from '../backend/wire/error-handler';
import { BLOB_STORE_UNAVAILABLE, Code } from '../backend/wire/errors';
import { InProcessDispatcher } from './in-process-dispatcher';
import type { Readable } from 'node:stream';
import type { ViewFiles } from '../shared/view-files';
import type { PageChangeFeed, PageStaleness } from './page-cache';
import type { ChangedSessions, SessionChangeFeed } from './plugins/page-guard';

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
  /** the admin account created by this start (first start only), else null; known once `ready` */
  initialAdmin: { username: string; password: string; generated: boolean } | null;
  /**
   * Resolves once the backend is built and ready: at once, unless PostgreSQL or the bucket was
   * away at the start; rejects when a later try meets another error (a refused login).
   */
  ready: Promise<void>;
  /** PostgreSQL or the bucket was away at the start: `ready` comes once it answers. */
  waited: boolean;
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
 * names a server that refuses the login or a URL that cannot be used. PostgreSQL or the bucket
 * away at the start (backend/platform/engine-away.ts): the backend is answered by a stand-in
 * that says 503 naming what is down (its /readyz too, so the gateway's) while the start is
 * tried again, and by the backend itself from the try that succeeds. `build`: buildBackend's options (tests).
 */
export async function startEmbeddedBackend(
  env: Record<string, string | undefined>,
  logger?: FastifyServerOptions['logger'],
  build: Omit<BuildBackendOptions, 'logger'> = {},
): Promise<EmbeddedBackend> {
  // BACKEND_HOST, BACKEND_PORT and BACKEND_TRUST_PROXY are for a backend run on its own.
  const config = loadBackendConfig({ ...env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: '0', BACKEND_TRUST_PROXY: '' });
  const options = { ...build, logger: logger ?? false };
  const start = async () => {
    const app = await buildBackend(config, options);
    await app.ready();
    return app;
  };
  const parts = { storage: storagePlaces(config), runsJobs: config.runJobs };
  let away: EngineAwayError;
  try {
    const app = await start();
    return {
      ...inProcessBackend(app),
      ...parts,
      initialAdmin: app.initialAdmin,
      ready: Promise.resolve(),
      waited: false,
      close: () => app.close(),
    };
  } catch (error) {
    if (!(error instanceof EngineAwayError)) throw error;
    away = error;
  }
  return waitingBackend(start, away, options.logger, parts, config.startRetryMs);
}

/** What the stand-in answers while `engine` is away: the backend's own 503 for it. */
const AWAY_MESSAGES = { database: DATABASE_UNAVAILABLE, blobs: BLOB_STORE_UNAVAILABLE } as const;

/** The backend, its start tried again while an engine is away; until then a stand-in answers every call 503. */
async function waitingBackend(
  start: () => Promise<FastifyInstance>,
  first: EngineAwayError,
  logger: FastifyServerOptions['logger'],
  parts: Pick<EmbeddedBackend, 'storage' | 'runsJobs'>,
  firstRetryMs: number,
): Promise<EmbeddedBackend> {
  let away = first;
  const standIn = Fastify({ logger: logger ?? false });
  // Bodies are not read: every call, whatever its type, gets the same 503.
  standIn.removeAllContentTypeParsers();
  standIn.addContentTypeParser('*', (_request, _payload, done) => done(null));
  standIn.setNotFoundHandler(async (_request, reply) =>
    reply
      .code(503)
      .header('cache-control', 'no-store')
      .send({ code: Code.Unavailable, message: AWAY_MESSAGES[away.engine] }),
  );
  await standIn.ready();
  const warn = (error: EngineAwayError, retryMs: number) =>
    standIn.log.warn(
      { reason: error.message },
      `the backend waits for ${error.engine === 'database' ? 'PostgreSQL' : 'the S3 bucket'}; trying again in ${retryMs / 1000} s`,
    );

  let app: FastifyInstance | undefined;
  const pageListeners = new Set<(stale: PageStaleness) => void>();
  const sessionListeners = new Set<(changed: ChangedSessions) => void>();
  const stopped = new AbortController();
  let firstTry = true;
  const ready = startWhenReachable(
    async () => {
      // The first try was made by startEmbeddedBackend: it waits its turn before the next.
      if (firstTry) {
        firstTry = false;
        throw first;
      }
      return start();
    },
    (error, retryMs) => {
      away = error;
      warn(error, retryMs);
    },
    { firstRetryMs, signal: stopped.signal },
  ).then(async (built) => {
    app = built;
    backend.initialAdmin = built.initialAdmin;
    built.contentChanges.subscribe(() => pageListeners.forEach((listener) => listener(EVERYTHING)));
    built.sessionChanges.subscribe((changed) => sessionListeners.forEach((listener) => listener(changed)));
    // What was kept meanwhile was made from the stand-in's refusals.
    pageListeners.forEach((listener) => listener(EVERYTHING));
    sessionListeners.forEach((listener) => listener('all'));
    await standIn.close();
  });
  // Told to whoever awaits `ready`; never an unhandled rejection meanwhile.
  ready.catch(() => undefined);

  const backend: EmbeddedBackend = {
    dispatcher: new InProcessDispatcher({ routing: (req, res) => (app ?? standIn).routing(req, res) }),
    // null: the gateway asks over the dispatcher, which the stand-in answers until the backend does.
    viewFiles: (url, request) => (app ? app.viewFiles(url, request) : null),
    backendChanges: (listener) => {
      pageListeners.add(listener);
      return () => pageListeners.delete(listener);
    },
    sessionChanges: {
      tell: async (changed) => app?.sessionChanges.tell(changed),
      subscribe: (listener) => {
        sessionListeners.add(listener);
        return () => sessionListeners.delete(listener);
      },
    },
    initialAdmin: null,
    ...parts,
    ready,
    waited: true,
    close: async () => {
      stopped.abort();
      await ready.catch(() => undefined);
      await app?.close();
      await standIn.close();
    },
  };
  return backend;
}
