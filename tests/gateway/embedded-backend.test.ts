// The embedded backend listens on a loopback port every local process can reach: it takes the
// requests of the gateway that started it only (a secret made at each start), and believes the
// client address that gateway forwards. Going around the gateway (its rate limits, CSRF checks
// and client address) is refused.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBackend, type EmbeddedBackend } from '../../gateway/embedded-backend';
import { GATEWAY_SECRET_HEADER } from '../../shared/constants';
import { withDatabase } from '../helpers/backend';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import { send, startGateway, type TestGateway } from './helpers';

const REFUSED = { code: 7, message: '后端只接受本站网关的请求', error: '后端只接受本站网关的请求' };

let dataDir: string;
let backend: EmbeddedBackend;
let gw: TestGateway;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'moredoc-embedded-'));
  backend = await startEmbeddedBackend({
    ...CAPTCHAS_OFF, LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    CONFIG_SMS_ENABLE: 'true', CONFIG_SMS_IP_HOURLY_LIMIT: '3',
    // Set for a backend run on its own; the embedded one believes its gateway only.
    BACKEND_TRUST_PROXY: '127.0.0.1',
  });
  gw = await startGateway(backend.url, { backendSecret: backend.secret }, { viewFiles: backend.viewFiles });
});
afterAll(async () => {
  await gw?.close();
  await backend?.close();
  await rm(dataDir, { recursive: true, force: true });
});

let seq = 0;
const newMobile = () => `136${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;
const smsSent = () => withDatabase(dataDir, async (db) => Number((await db.selectFrom('sms_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n));

describe('the embedded backend', () => {
  it('refuses requests without its secret, or with another, with 403 JSON, before any route', async () => {
    for (const headers of [{}, { [GATEWAY_SECRET_HEADER]: 'guessed' }, { [GATEWAY_SECRET_HEADER]: `${backend.secret}x` }] as Record<string, string>[]) {
      for (const path of ['/api/v1/settings', '/view/cover/0123456789abcdef0123456789abcdef', '/no/such/path']) {
        const res = await send(`${backend.url}${path}`, { headers });
        expect(res.status, path).toBe(403);
        expect(res.json()).toEqual(REFUSED);
      }
    }
    const upload = await send(`${backend.url}/api/v1/upload/feedback`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' });
    expect(upload.status).toBe(403);
    const own = await send(`${backend.url}/api/v1/settings`, { headers: { [GATEWAY_SECRET_HEADER]: backend.secret } });
    expect(own.status).toBe(200);
  });

  it('sends no SMS for 30 calls straight to its port, whatever X-Forwarded-For they claim', async () => {
    for (let i = 1; i <= 30; i += 1) {
      const res = await send(`${backend.url}/api/v1/user/sms/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: JSON.stringify({ mobile: newMobile(), type: 'register' }),
      });
      expect(res.status).toBe(403);
    }
    expect(await smsSent()).toBe(0);
  });

  it('serves its gateway: the client address the gateway forwards is the one the limits count', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const res = await send(`${gw.url}/api/v1/user/sms/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: JSON.stringify({ mobile: newMobile(), type: 'register' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const addresses = await withDatabase(dataDir, (db) => db.selectFrom('sms_log').select('ip').distinct().execute());
    expect(addresses).toEqual([{ ip: '127.0.0.1' }]);
    expect((await send(`${gw.url}/api/v1/settings`)).status).toBe(200);
  });

  it('makes a new secret at each start', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'moredoc-embedded-'));
    const other = await startEmbeddedBackend({ ...CAPTCHAS_OFF, LOG_LEVEL: 'silent', DATA_DIR: otherDir, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
    try {
      expect(other.secret).not.toBe(backend.secret);
      expect(other.secret.length).toBeGreaterThanOrEqual(43);
      expect((await send(`${other.url}/api/v1/settings`, { headers: { [GATEWAY_SECRET_HEADER]: backend.secret } })).status).toBe(403);
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });
});
