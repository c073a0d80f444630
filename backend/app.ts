import { stat } from 'node:fs/promises';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pkg from '../package.json' with { type: 'json' };
import { ConfigError, type BackendConfig } from './config';
import { DatabaseStartError, isDatabaseUnavailable, openDatabase, openPostgres, type BackendDatabase } from './db';
import { EngineAwayError } from './platform/engine-away';
import { PostgresNotifications } from './db/notifications';
import { databaseNow } from './db/dialect';
import { DEFAULT_PASSWORD_COST, verifyPassword } from './platform/auth/password';
import { SUPER_USER_ID } from '../shared/permissions';
import { loadBuildInfo, type BuildInfo } from './platform/build-info';
import { sharedSecret } from './platform/auth/secrets';
import { SessionChanges } from './platform/auth/session-changes';
import { SignInLimit, WindowCounter } from './platform/sign-in-limit';
import { ViewsSeen } from './platform/views-seen';
import { serverByTurns } from './platform/turns';
import { TokenService, loadJwtSecret } from './platform/auth/tokens';
import type { BlobStore } from './platform/blobs/blob-store';
import { LocalBlobStore } from './platform/blobs/local-blob-store';
import { CACHE_DEFAULTS, CachedBlobStore } from './platform/blobs/cached-blob-store';
import { createDocumentConverter, type ConverterSettings, type DocumentConverter } from './platform/convert/converter';
import { CaptchaStore, type CaptchaGenerator, type CaptchaLimits } from './platform/captcha';
import { ConfigStore } from './platform/config-store';
import { ContentChanges } from './platform/content-changes';
import type { BackendContext, RemoteImageTrust } from './platform/context';
import { JobQueue, jobBacklog } from './platform/jobs/job-queue';
import { removeAbandonedScratch } from './platform/scratch';
import { Mailer } from './platform/mailer';
import { PostgresSearchIndex } from './platform/search/postgres-search-index';
import type { SearchCollection, SearchIndex } from './platform/search/search-index';
import { SqliteSearchIndex } from './platform/search/sqlite-search-index';
import { serveService, type ServiceModule } from './platform/rpc';
import { SmsSender } from './platform/sms/sms-sender';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './wire/error-handler';
import { bodyText } from './wire/message';
import { registerExpectContinue } from './wire/expect-continue';
import { registerBodyTimeout } from './wire/body-timeout';
import { registerReadiness } from './wire/readiness';
import { runSeed } from './seed';
import { accountService } from './modules/account/routes';
import type { InitialAdmin } from './modules/user/seed';
import { groupService } from './modules/group/routes';
import { permissionService } from './modules/permission/routes';
import { configService } from './modules/config/routes';
import { buildSettings } from './modules/config/settings';
import { navigationService } from './modules/navigation/routes';
import { categoryService } from './modules/category/routes';
import { friendlinkService } from './modules/friendlink/routes';
import { bannerService } from './modules/banner/routes';
import { languageService } from './modules/language/routes';
import { punishmentService } from './modules/punishment/routes';
import { oauthService } from './modules/oauth/routes';
import { uploadService } from './modules/attachment/routes';
import { documentUploadService } from './modules/document/upload';
import { fileService } from './modules/attachment/file-routes';
import { documentService, recycleService } from './modules/document/routes';
import { attachmentAdminService } from './modules/attachment-admin/routes';
import { searchRecordService } from './modules/search-record/routes';
import { downloadService, userDownloadService } from './modules/download/routes';
import { favoriteService } from './modules/favorite/routes';
import { documentSearchService } from './modules/document-search/routes';
import { vipService } from './modules/vip/routes';
import { orderService } from './modules/order/routes';
import { advertisementService } from './modules/advertisement/routes';
import { sitemapService } from './modules/sitemap/routes';
import { registerAccessLog } from './platform/access-log';
import { viewFilesInProcess } from './modules/document/page-routes';
import { articleService } from './modules/article/routes';
import { commentService } from './modules/comment/routes';
import { reportService } from './modules/report/routes';
import { feedbackService } from './modules/feedback/routes';
import { messageService } from './modules/message/routes';
import type { Readable } from 'node:stream';
import type { ViewFiles } from '../shared/view-files';

/**
 * Every service of the embedded backend. The routes AND the seeded permission rows come
 * from this one list: adding a service is adding its module here.
 */
export const services: readonly ServiceModule[] = [
  accountService,
  groupService,
  permissionService,
  configService,
  navigationService,
  categoryService,
  friendlinkService,
  bannerService,
  languageService,
  punishmentService,
  oauthService,
  uploadService,
  documentUploadService,
  fileService,
  documentService,
  recycleService,
  attachmentAdminService,
  searchRecordService,
  downloadService,
  userDownloadService,
  favoriteService,
  documentSearchService,
  vipService,
  orderService,
  advertisementService,
  sitemapService,
  articleService,
  commentService,
  reportService,
  feedbackService,
  messageService,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Credentials of the admin account created by this start; null on later starts. */
    initialAdmin: InitialAdmin | null;
    /**
     * The answers of `/view/page` and `/view/cover` for a gateway in the same process
     * (gateway/embedded-backend.ts hands them over): decided by the same code, files
     * streamed from the blob store, no HTTP in between.
     */
    viewFiles: ViewFiles<Readable>;
    /** The changes of what the public pages show, for a gateway in the same process: its kept pages follow them. */
    contentChanges: ContentChanges;
    /** Sessions ended or changed, told to and by every process on the database: a gateway in the same process drops what it keeps of them. */
    sessionChanges: SessionChanges;
  }
}

export interface BuildBackendOptions {
  logger?: FastifyServerOptions['logger'];
  /** Replaces the SVG captcha renderer (tests that need to know the answer). */
  captchaGenerator?: CaptchaGenerator;
  /** How many live captchas are kept (default CAPTCHA_LIMITS); tests reach the bounds with few. */
  captchaLimits?: CaptchaLimits;
  /** log2 of scrypt's N for new password hashes (default 14); tests lower it for speed. */
  passwordCost?: number;
  /** Makes the conversion engine (default: createDocumentConverter); tests replay conversions recorded once. */
  converter?: (settings: ConverterSettings) => DocumentConverter;
  /** Told the SQL of every query and its parameters (tests pin how many queries an RPC makes, and explain them). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /** Wraps the files' store (tests hold a write back to stop the process at that point). */
  blobStore?: (store: BlobStore) => BlobStore;
  /** Wraps each search index (tests see what a search asks of the engine and what it answers). */
  searchIndex?: (index: SearchIndex) => SearchIndex;
  /** Image hosts trusted besides public https ones (tests copy OAuth avatars from a loopback server of their own). */
  remoteImages?: RemoteImageTrust;
  /** How many views counted today the database remembers (default VIEWS_REMEMBERED); tests reach the bound with few. */
  viewsRemembered?: number;
  /** How long a close waits for running jobs before it aborts them (default 5 s); tests of a shutdown mid-job shorten it. */
  jobStopGraceMs?: number;
}

/**
 * The conversion engine, made on first use: looking for LibreOffice and calibre runs their
 * `--version`, which a process that never converts (most test backends) need not pay for.
 */
function lazyConverter(
  settings: ConverterSettings,
  make: (settings: ConverterSettings) => DocumentConverter = createDocumentConverter,
): { converter: DocumentConverter; close(): Promise<void> } {
  let engine: DocumentConverter | undefined;
  const get = () => (engine ??= make(settings));
  return {
    converter: {
      convertDocument: (request) => get().convertDocument(request),
      pageAtReadingResolution: (n, stored, pending, signal) =>
        get().pageAtReadingResolution(n, stored, pending, signal),
      extractPositions: (request) => get().extractPositions(request),
      detectConverters: () => get().detectConverters(),
      close: async () => engine?.close(),
    },
    close: async () => engine?.close(),
  };
}

/**
 * LIBREOFFICE_PATH or CALIBRE_PATH naming nothing that exists is a mistake the operator would
 * otherwise learn of from a failed conversion: it stops the start. A folder that exists may get
 * the program later (looked for again when a conversion needs it).
 */
async function checkConverterPaths(convert: BackendConfig['convert']): Promise<void> {
  const configured = [
    ['LIBREOFFICE_PATH', convert.libreofficePath, 'soffice, soffice.bin or the LibreOffice program folder'],
    ['CALIBRE_PATH', convert.calibrePath, 'ebook-convert or its folder'],
  ] as const;
  for (const [variable, value, expected] of configured) {
    if (typeof value !== 'string' || (await stat(value).catch(() => null))) continue;
    throw new ConfigError(
      `${variable} points to nothing: "${value}" does not exist (name ${expected}, or off to do without it)`,
    );
  }
}

/** What the system answers when DATA_DIR cannot be made or written (a file, another user's folder, a read-only disk). */
const DATA_DIR_ERRORS = new Set([
  'ENOTDIR',
  'EEXIST',
  'EACCES',
  'EPERM',
  'EROFS',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
]);

/** Opens what lives in DATA_DIR; a folder the process cannot use is a ConfigError naming DATA_DIR, not a stack trace. */
async function inDataDir<T>(dataDir: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code || !DATA_DIR_ERRORS.has(code)) throw error;
    throw new ConfigError(
      `DATA_DIR ${dataDir} cannot be used (${(error as Error).message}): name a folder this process's user may create or write`,
    );
  }
}

/**
 * The files' store, chosen here only: S3_BUCKET's bucket (a wrong setting stops the start; `check`,
 * whether the bucket answers, is part of /readyz), else DATA_DIR. The S3 engine's module is
 * imported only when S3_BUCKET is set, and the AWS SDK with it (s3-blob-store.ts).
 */
async function openBlobStore(
  config: BackendConfig,
): Promise<{ store: BlobStore; close(): void; check?: (signal: AbortSignal) => Promise<void> }> {
  if (!config.s3)
    return {
      store: await inDataDir(config.dataDir, () => LocalBlobStore.open(config.dataDir)),
      close: () => undefined,
    };
  const { S3BlobStore, S3BucketCheckError } = await import('./platform/blobs/s3-blob-store');
  const store = await S3BlobStore.open(config.s3).catch((error: unknown) => {
    if (!(error instanceof S3BucketCheckError)) throw error;
    // The service away (refused, no answer, 5xx) is waited for; a wrong setting stops the start.
    throw error.away ? new EngineAwayError('blobs', error.message) : new ConfigError(error.message);
  });
  const cacheBytes = config.s3CacheBytes ?? 0;
  const cached = cacheBytes > 0 ? new CachedBlobStore(store, { ...CACHE_DEFAULTS, maxBytes: cacheBytes }) : store;
  return { store: cached, close: () => store.close(), check: (signal) => store.checkBucket(signal) };
}

/** The search indexes on the engine the database runs on, and how to bring each up to date after the start. */
interface SearchEngines {
  indexes: Record<SearchCollection, SearchIndex>;
  upgrade(options: { stopped: () => boolean }): Promise<unknown>[];
}

function searchEngines(opened: BackendDatabase, wrap: (index: SearchIndex) => SearchIndex): SearchEngines {
  const engines =
    opened.engine === 'sqlite'
      ? {
          document: new SqliteSearchIndex(opened.sqlite, 'document'),
          article: new SqliteSearchIndex(opened.sqlite, 'article'),
        }
      : {
          document: new PostgresSearchIndex(opened.db, 'document'),
          article: new PostgresSearchIndex(opened.db, 'article'),
        };
  return {
    indexes: { document: wrap(engines.document), article: wrap(engines.article) },
    upgrade: (options) => Object.values(engines).map((index) => index.upgrade(options)),
  };
}

/** Requests bigger than grpc-go's default receive limit fail with 429 in MOREDOC too. */
const BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The backend, built and checked; not listening. Throws EngineAwayError when PostgreSQL or the
 * bucket is away (a later try may succeed: backend/platform/engine-away.ts), having closed
 * whatever this try opened.
 */
export async function buildBackend(config: BackendConfig, opts: BuildBackendOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // As the gateway's (gateway/app.ts): a slow start (migrations on a busy machine) is not a fault.
    pluginTimeout: 120_000,
    trustProxy: config.trustProxy,
    // Served on its own (`npm run backend`), a busy backend still accepts new connections: its
    // requests start by turns of the event loop, as the gateway's do (platform/turns.ts).
    serverFactory: (handler, options) => serverByTurns(handler, options),
    // An address the router cannot read: the Chinese error, not Fastify's English JSON.
    frameworkErrors: answerFrameworkError,
    // A request Node's parser refuses: the same, in Chinese (decision 110).
    clientErrorHandler: answerClientError,
  });
  try {
    await assemble(app, config, opts);
  } catch (error) {
    // Nothing of a failed start stays open: a start tried again must not leave a pool behind each try.
    await app.close().catch(() => undefined);
    if (error instanceof EngineAwayError || !isDatabaseUnavailable(error)) throw error;
    throw new EngineAwayError('database', `PostgreSQL went away during the start: ${(error as Error).message}`);
  }
  return app;
}

/** buildBackend's work on its Fastify instance: what a failure left open is closed by its onClose hooks. */
async function assemble(app: FastifyInstance, config: BackendConfig, opts: BuildBackendOptions): Promise<void> {
  registerAccessLog(app);

  // grpc-gateway registers one marshaller for every content type: bodies stay raw strings
  // and are decoded against the RPC's message (bytes that are not UTF-8: a 400).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, bodyText(body as Buffer));
    } catch (error) {
      done(error as Error);
    }
  });

  registerErrorHandling(app);
  registerExpectContinue(app);
  registerBodyTimeout(app, config.bodyTimeoutMs);

  await checkConverterPaths(config.convert);
  const blobs = await openBlobStore(config);
  const opened = await (
    config.database
      ? openPostgres({
          ...config.database,
          onQuery: opts.onQuery,
          onIdleError: (error) => {
            // The server ended it (a restart, a shutdown, pg_terminate_backend: 57P01…) or it was cut:
            // nothing is lost and the pool opens another when one is needed, so no error to page anyone for.
            if (isDatabaseUnavailable(error)) {
              app.log.warn(
                { reason: error.message, code: (error as { code?: string }).code },
                'an idle PostgreSQL connection of the pool was closed by the server or cut; the pool opens a new one when needed',
              );
            } else app.log.error({ err: error }, 'a PostgreSQL connection of the pool failed');
          },
        })
      : inDataDir(config.dataDir, () => openDatabase(config.dataDir, opts.onQuery))
  ).catch((error: unknown) => {
    blobs.close();
    // PostgreSQL away (refused, starting up): waited for; a refused login or a bad URL stops the start.
    throw error instanceof DatabaseStartError && error.away ? new EngineAwayError('database', error.message) : error;
  });
  const { db } = opened;
  // Processes sharing a PostgreSQL database tell each other of new jobs (and changed settings).
  const notifications = config.database
    ? new PostgresNotifications({ url: config.database.url, log: app.log })
    : undefined;
  let build: Promise<BuildInfo> | undefined;
  // Half of close-with-grace's 10 s, so that aborted handlers still get their moment.
  const jobs = new JobQueue({
    db,
    logger: app.log,
    stopGraceMs: opts.jobStopGraceMs ?? 5000,
    ...config.jobs,
    ...(notifications ? { notifications } : {}),
  });
  const { workers, nice, libreofficePath, calibrePath } = config.convert;
  const conversion = lazyConverter(
    {
      workers,
      niceIncrement: nice,
      ...(libreofficePath !== undefined ? { libreofficePath } : {}),
      ...(calibrePath !== undefined ? { calibrePath } : {}),
    },
    opts.converter,
  );
  let closing = false;
  let searchUpgrade: Promise<unknown> = Promise.resolve();
  // Running jobs finish (or are aborted) while the database is still open.
  app.addHook('onClose', async () => {
    closing = true;
    await searchUpgrade;
    await jobs.stop();
    await notifications?.close();
    await conversion.close();
    await db.destroy();
    blobs.close();
  });

  const passwordCost = opts.passwordCost ?? DEFAULT_PASSWORD_COST;
  const { initialAdmin, presetsNotApplied } = await runSeed(db, {
    passwordCost,
    permissions: services.flatMap((s) => s.permissions),
    configPresets: config.configPresets,
    ...(config.adminPassword !== undefined ? { adminPassword: config.adminPassword } : {}),
  });
  // An operator who changes a CONFIG_ variable of a running site expects it to apply: say it did not.
  for (const { category, name } of presetsNotApplied) {
    const variable = `CONFIG_${category.toUpperCase()}_${name.toUpperCase()}`;
    app.log.warn(
      `${category === 'system' && name === 'domain' ? `${variable} (or PUBLIC_ORIGIN)` : variable} not applied: ` +
        `the setting ${category}.${name} has a value already, which the variable does not replace; change it in the admin's settings (/admin/config)`,
    );
  }
  // ADMIN_PASSWORD names the password of the account a first start creates; set later (lost the printed
  // one, or added to .env after the first `docker compose up`), it changes nothing: say so when it is
  // not the admin's password, rather than leave the operator refused at the login with it.
  if (config.adminPassword !== undefined && !initialAdmin) {
    const admin = await db.selectFrom('user').select('password').where('id', '=', SUPER_USER_ID).executeTakeFirst();
    if (admin && !(await verifyPassword(config.adminPassword, admin.password)))
      app.log.warn(
        'ADMIN_PASSWORD not applied: the admin account exists already and keeps its password, which the variable does not replace; ' +
          'npm run admin:password (node dist/server/scripts/admin-password.mjs in a build or the Docker image) sets it to ADMIN_PASSWORD',
      );
  }
  app.decorate('initialAdmin', initialAdmin);

  const settings = new ConfigStore(db);
  // The public settings (their languages and footer links) are made with each snapshot read, one
  // a change through another process brings (a NOTIFY) too: answered from memory if PostgreSQL
  // goes away before this instance is asked for them.
  settings.prepare((snapshot) => buildSettings(db, snapshot, pkg.version));
  const search = searchEngines(opened, opts.searchIndex ?? ((index) => index));
  const context: BackendContext = {
    db,
    settings,
    tokens: new TokenService(await loadJwtSecret(db, config.dataDir, config.jwtSecret), config.jwtExpireDays ?? 365, {
      now: () => databaseNow(db),
      log: app.log,
    }),
    downloadLinkSecret: await sharedSecret(db, 'download', config.dataDir),
    resetLinkSecret: await sharedSecret(db, 'reset', config.dataDir),
    captcha: new CaptchaStore(db, opts.captchaGenerator, opts.captchaLimits),
    mailer: new Mailer(settings),
    sms: new SmsSender(settings, config.sms, app.log),
    blobs: opts.blobStore ? opts.blobStore(blobs.store) : blobs.store,
    jobs,
    contentChanges: new ContentChanges(app.log),
    converter: conversion.converter,
    conversion: {
      jobs: config.convert.jobs,
      timeoutMs: config.convert.timeoutMs,
      pageTimeoutMs: config.convert.pageTimeoutMs,
      maxPages: config.convert.maxPages,
    },
    search: search.indexes,
    log: app.log,
    dataDir: config.dataDir,
    oauth: config.oauth,
    remoteImages: opts.remoteImages ?? {},
    payment: config.payment,
    version: pkg.version,
    build: () => (build ??= loadBuildInfo({ given: config.build })),
    passwordCost,
    minuteCounts: new WindowCounter(db, 60_000),
    viewsSeen: new ViewsSeen(db, config.ipv6Prefix, opts.viewsRemembered),
    searchRecordLimit: config.searchRecordLimit,
    ipv6Prefix: config.ipv6Prefix,
  };

  new SignInLimit(db, config.signInLimit, config.ipv6Prefix).register(app);
  registerReadiness(app, { db, jobs: () => jobBacklog(db), ...(blobs.check ? { blobs: blobs.check } : {}) });
  for (const service of services) await serveService(app, context, service);
  app.decorate('viewFiles', viewFilesInProcess(context));
  app.decorate('contentChanges', context.contentChanges);
  const sessionChanges = new SessionChanges(db, notifications);
  app.decorate('sessionChanges', sessionChanges);
  app.addHook('onReady', async () => {
    // The settings every page asks for, read now: an instance answers them from memory while
    // PostgreSQL is away even if it had served nothing yet. A read that fails is made by the first call.
    await buildSettings(db, await settings.snapshot(), pkg.version).catch(() => undefined);
    if (notifications) await settings.listen(notifications);
    await sessionChanges.listen();
    // RUN_JOBS=false: a web instance; it enqueues, the workers (`npm run worker`) run.
    if (config.runJobs) {
      await removeAbandonedScratch();
      jobs.start();
    }
    // An index made by an older tokenizer is brought up to date while the site answers.
    searchUpgrade = Promise.all(
      search
        .upgrade({ stopped: () => closing })
        .map((upgrade) =>
          upgrade.catch((error: unknown) => app.log.error({ err: error }, 'search index upgrade failed')),
        ),
    );
  });
}
