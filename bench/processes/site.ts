// The site as `npm start` runs it: the gateway and, in the same process, the embedded backend
// (so a conversion shares the process, and its event loop, with the gateway's requests), every
// backend call answered in process. With BENCH_BACKEND_LISTEN=1 the backend also listens on a
// loopback port (announced as `backend`) for references that reach it directly (nginx in front
// of it), and BENCH_PROXIED_GATEWAY=1 adds a second gateway in the same process that asks it
// over that port, as with BACKEND_URL.
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { inProcessBackend } from '../../gateway/embedded-backend';
import { buildBackend } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import { announceReady } from '../lib/child-ready';

const listens = process.env.BENCH_BACKEND_LISTEN === '1' || process.env.BENCH_PROXIED_GATEWAY === '1';
const backend = await buildBackend(
  loadBackendConfig({ ...process.env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: '0', BACKEND_TRUST_PROXY: '127.0.0.1' }),
  { logger: false },
);
const backendUrl = listens ? await backend.listen({ host: '127.0.0.1', port: 0 }) : (await backend.ready(), undefined);
const gatewayConfig = loadGatewayConfig(process.env);
const config = { ...gatewayConfig, webDist: process.env.BENCH_WEB_DIST ?? gatewayConfig.webDist };
const embedded = inProcessBackend(backend);
const app = buildGateway(config, embedded);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const proxied = process.env.BENCH_PROXIED_GATEWAY === '1' ? buildGateway({ ...config, backendUrl }) : undefined;
const proxiedUrl = await proxied?.listen({ host: '127.0.0.1', port: 0 });
announceReady(
  { ready: url, ...(backendUrl ? { backend: backendUrl } : {}), ...(proxiedUrl ? { proxied: proxiedUrl } : {}) },
  () => Promise.all([app.close(), proxied?.close()]).then(() => backend.close()),
);
