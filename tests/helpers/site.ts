// The whole site for end-to-end tests: the embedded backend (temporary DATA_DIR, fixed
// admin password, captchas off unless `env` turns them on) and the gateway in front of it,
// both on 127.0.0.1 port 0, the gateway serving pages and covers in process as `npm start` does.
// Fixtures made through the backend directly (`api(site.backendUrl, …)`) carry its secret.
// On the engine under test (test-database.ts): with TEST_DATABASE=postgres, a fresh database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BuildBackendOptions } from '../../backend/app';
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { startEmbeddedBackend } from '../../gateway/embedded-backend';
import { callAsGatewayOf } from './backend';
import { databaseEnv, dropDatabaseOf } from './test-database';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from './test-env';

const DEFAULT_ENV: Record<string, string> = { ...CAPTCHAS_OFF, LOG_LEVEL: 'silent' };

export interface Site {
  /** the gateway, e.g. http://127.0.0.1:41234 */
  url: string;
  /** the embedded backend behind it, for fixtures made through the API directly */
  backendUrl: string;
  dataDir: string;
  adminPassword: string;
  close(): Promise<void>;
}

export async function startSite(opts: { env?: Record<string, string>; webDist?: string; build?: Omit<BuildBackendOptions, 'logger'> } = {}): Promise<Site> {
  const dataDir = await mkdtemp(join(tmpdir(), 'moredoc-site-'));
  const env = { ...DEFAULT_ENV, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...(await databaseEnv(dataDir)), ...opts.env, DATA_DIR: dataDir };
  const removeData = async () => {
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabaseOf(dataDir);
  };
  let backend;
  try {
    backend = await startEmbeddedBackend(env, undefined, opts.build);
  } catch (error) {
    await removeData();
    throw error;
  }
  callAsGatewayOf(backend.url, backend.secret);
  try {
    const config = loadGatewayConfig(env);
    const gateway = buildGateway(
      {
        ...config,
        backendUrl: backend.url,
        backendSecret: backend.secret,
        ...(opts.webDist ? { webDist: opts.webDist } : {}),
        // browser suites log in many times from one address
        authRateLimit: { max: 10_000, windowMs: 60_000 },
      },
      { viewFiles: backend.viewFiles },
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      backendUrl: backend.url,
      dataDir,
      adminPassword: TEST_ADMIN_PASSWORD,
      async close() {
        await gateway.close();
        await backend.close();
        await removeData();
      },
    };
  } catch (error) {
    await backend.close();
    await removeData();
    throw error;
  }
}
