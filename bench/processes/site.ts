// The site as `npm start` runs it: the gateway and, in the same process, the embedded backend
// (so a conversion shares the process, and its event loop, with the gateway's requests), the
// gateway serving pages and covers in process. Announces the embedded backend's own URL and the
// secret it takes calls with too, for references that reach it directly; with
// BENCH_PROXIED_GATEWAY=1 also a second gateway in the same process that asks the backend for
// pages over HTTP, as before it could ask in process.
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { startEmbeddedBackend } from '../../gateway/embedded-backend';

const backend = await startEmbeddedBackend(process.env);
const gatewayConfig = loadGatewayConfig(process.env);
const config = { ...gatewayConfig, backendUrl: backend.url, backendSecret: backend.secret, webDist: process.env.BENCH_WEB_DIST ?? gatewayConfig.webDist };
const app = buildGateway(config, { viewFiles: backend.viewFiles });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const proxied = process.env.BENCH_PROXIED_GATEWAY === '1' ? buildGateway(config) : undefined;
const proxiedUrl = await proxied?.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ ready: url, backend: backend.url, backendSecret: backend.secret, ...(proxiedUrl ? { proxied: proxiedUrl } : {}) }));
process.on('SIGTERM', () => {
  Promise.all([app.close(), proxied?.close()])
    .then(() => backend.close())
    .then(() => process.exit(0), () => process.exit(1));
});
