import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startBackend, withDatabase, type StartedBackend } from '../helpers/backend';

// The backend run on its own (`npm run backend`) believes X-Forwarded-For only from the
// proxies BACKEND_TRUST_PROXY names (none by default): a caller cannot pick the address the
// per-address limits count by sending another X-Forwarded-For each time.

const SMS = { CONFIG_SMS_ENABLE: 'true', CONFIG_SMS_IP_HOURLY_LIMIT: '3' };

let seq = 0;
const newMobile = () => `137${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;

/** Five codes to five numbers, each claiming another client address; their statuses. */
async function fiveCodes(backend: StartedBackend): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 1; i <= 5; i += 1) {
    const res = await api(backend.url, 'POST', '/api/v1/user/sms/code', {
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
      body: { mobile: newMobile(), type: 'register' },
    });
    statuses.push(res.status);
  }
  return statuses;
}

const loggedAddresses = (backend: StartedBackend) =>
  withDatabase(backend.dataDir, async (db) =>
    (await db.selectFrom('sms_log').select('ip').distinct().execute()).map((row) => row.ip),
  );

describe('without BACKEND_TRUST_PROXY', () => {
  let backend: StartedBackend;
  beforeAll(async () => {
    backend = await startBackend({ env: { ...SMS, BACKEND_TRUST_PROXY: '' } });
  });
  afterAll(() => backend?.close());

  it('counts the peer address, whatever X-Forwarded-For says: the per-address limit holds', async () => {
    expect(await fiveCodes(backend)).toEqual([200, 200, 200, 429, 429]);
    expect(await loggedAddresses(backend)).toEqual(['127.0.0.1']);
  });
});

describe('behind a proxy BACKEND_TRUST_PROXY names', () => {
  let backend: StartedBackend;
  beforeAll(async () => {
    backend = await startBackend({ env: { ...SMS, BACKEND_TRUST_PROXY: '127.0.0.1/32' } });
  });
  afterAll(() => backend?.close());

  it('counts the client address the proxy forwards', async () => {
    expect(await fiveCodes(backend)).toEqual([200, 200, 200, 200, 200]);
    expect((await loggedAddresses(backend)).sort()).toEqual([
      '203.0.113.1',
      '203.0.113.2',
      '203.0.113.3',
      '203.0.113.4',
      '203.0.113.5',
    ]);
  });
});
