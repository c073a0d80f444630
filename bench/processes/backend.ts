// The embedded backend in a process of its own (DATA_DIR, ADMIN_PASSWORD from the benchmark),
// so that the gateway's memory is measured without it.
import { buildBackend } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import { announceReady } from '../lib/child-ready';

const config = loadBackendConfig({ ...process.env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: '0', LOG_LEVEL: 'warn' });
const app = await buildBackend(config);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
announceReady({ ready: url }, () => app.close());
