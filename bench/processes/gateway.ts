// The gateway as production builds it (buildGateway from the environment, BACKEND_URL set),
// listening on a loopback port of its own choosing.
import { buildGateway } from '../../gateway/app';
import { loadGatewayConfig } from '../../gateway/config';
import { announceReady } from '../lib/child-ready';

const config = loadGatewayConfig(process.env);
if (config.backendUrl === undefined) throw new Error('bench gateway: BACKEND_URL must be set');
const app = buildGateway({
  ...config,
  backendUrl: config.backendUrl,
  webDist: process.env.BENCH_WEB_DIST ?? config.webDist,
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
announceReady({ ready: url }, () => app.close());
