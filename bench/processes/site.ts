// The site as `npm start` runs it: the gateway and, in the same process, the embedded backend
// (so a conversion shares the process, and its event loop, with the gateway's requests).
// Announces the embedded backend's own URL too, for references that reach it directly.
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { startEmbeddedBackend } from '../../gateway/embedded-backend';

const backend = await startEmbeddedBackend(process.env);
const config = loadGatewayConfig(process.env);
const app = buildGateway({ ...config, backendUrl: backend.url, webDist: process.env.BENCH_WEB_DIST ?? config.webDist });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ ready: url, backend: backend.url }));
process.on('SIGTERM', () => {
  app.close().then(() => backend.close()).then(() => process.exit(0), () => process.exit(1));
});
