// The whole site for end-to-end tests: the embedded backend (temporary DATA_DIR, fixed
// admin password, captchas off unless `env` turns them on) and the gateway in front of it,
// the gateway answering every backend call in process as `npm start` does (no socket between
// them). `backend: 'remote'` puts the same gateway in front of the same backend over HTTP
// instead, as with BACKEND_URL. The backend also listens on 127.0.0.1 port 0, for fixtures
// made through its API directly (`api(site.backendUrl, …)`): the gateway does not use that port.
// On the engine under test (test-database.ts): with TEST_DATABASE=postgres, a fresh database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BuildBackendOptions } from '../../backend/app';
import { buildGateway, type GatewayBuildConfig } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { inProcessBackend } from '../../gateway/embedded-backend';
import { startBackend, type StartedBackend } from './backend';
import { dropDatabaseOf } from './test-database';
import { CAPTCHAS_OFF, SEARCH_RECORD_LIMIT_OFF, SIGN_IN_LIMIT_OFF, TEST_ADMIN_PASSWORD } from './test-env';

const DEFAULT_ENV: Record<string, string> = {
  ...CAPTCHAS_OFF,
  ...SIGN_IN_LIMIT_OFF,
  ...SEARCH_RECORD_LIMIT_OFF,
  LOG_LEVEL: 'silent',
};

export interface Site {
  /** the gateway, e.g. http://127.0.0.1:41234 */
  url: string;
  /** the embedded backend behind it, for fixtures made through the API directly */
  backendUrl: string;
  dataDir: string;
  adminPassword: string;
  close(): Promise<void>;
}

export interface SiteOptions {
  env?: Record<string, string>;
  webDist?: string;
  /**
   * how the gateway reaches the backend: in its process (default, as `npm start`) or over HTTP (as with BACKEND_URL)
   */
  backend?: 'in-process' | 'remote';
  /** buildBackend's options (e.g. conversions replayed from recordings) */
  build?: Omit<BuildBackendOptions, 'logger'>;
  /** the gateway's settings over those of `env` (e.g. how long kept pages live) */
  gateway?: Partial<GatewayBuildConfig>;
}

/**
 * How long a test site's page waits for its first screen. The product's 1 s
 * (FIRST_SCREEN_TIME_LIMIT_MS) is a bound for visitors on a machine at its speed; on a loaded
 * test machine a render took longer, and the page came without its first screen (the crawler
 * content), failing checks of the first screen by the machine's speed (e2e service-unavailable's
 * 503 page). Tests of a late first screen build their gateway with their own
 * (tests/gateway/first-screen.test.ts).
 */
const TEST_FIRST_SCREEN_TIME_LIMIT_MS = 30_000;

export async function startSite(opts: SiteOptions = {}): Promise<Site> {
  const dataDir = await mkdtemp(join(tmpdir(), 'moredoc-site-'));
  const env = { ...DEFAULT_ENV, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...opts.env, DATA_DIR: dataDir };
  let backend: StartedBackend;
  try {
    // startBackend gives it its own database on PostgreSQL (test-database.ts); close() drops it
    backend = await startBackend({ env, dataDir, ...(opts.build ? { build: opts.build } : {}) });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabaseOf(dataDir);
    throw error;
  }
  try {
    const config = loadGatewayConfig(env);
    const remote = opts.backend === 'remote';
    const embedded = remote ? undefined : inProcessBackend(backend.app);
    const gateway = buildGateway(
      {
        ...config,
        backendUrl: remote ? backend.url : undefined,
        ...(opts.webDist ? { webDist: opts.webDist } : {}),
        // browser suites log in many times from one address
        authRateLimit: { max: 10_000, windowMs: 60_000 },
        ...opts.gateway,
      },
      {
        viewFiles: backend.viewFiles,
        dispatcher: embedded?.dispatcher,
        backendChanges: embedded?.backendChanges,
        sessionChanges: embedded?.sessionChanges,
        firstScreenTimeLimitMs: TEST_FIRST_SCREEN_TIME_LIMIT_MS,
      },
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      backendUrl: backend.url,
      dataDir,
      // `ADMIN_PASSWORD: ''` in env: the first start generates one, as a new site's does.
      adminPassword: backend.adminPassword,
      async close() {
        await gateway.close();
        await backend.close();
      },
    };
  } catch (error) {
    await backend.close();
    throw error;
  }
}
