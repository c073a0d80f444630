import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  login,
  registerMember,
  setConfig,
  startBackend,
  useBackend,
  withDatabase,
  type StartedBackend,
} from '../helpers/backend';

// SearchRecordAPI (the search log for admins) and its retention: records older than
// `security.search_record_retention_days` are purged by a job that runs at start and daily.
// Records written by real searches are tested with SearchDocument (document-search.test.ts).

const backend = useBackend();

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

function insertRecords(
  dataDir: string,
  rows: { user_id?: number; ip?: string; keywords: string; total?: number; created_at?: string }[],
) {
  return withDatabase(dataDir, async (db) => {
    const ids: number[] = [];
    for (const r of rows) {
      const { created_at = new Date().toISOString(), ...values } = r;
      const row = await db
        .insertInto('search_record')
        .values({
          user_id: 0,
          ip: '10.0.0.1',
          total: 3,
          page: 1,
          user_agent: 'vitest',
          type: 0,
          spend_time: 0.012,
          ...values,
          created_at,
          updated_at: created_at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  });
}

describe('ListSearchRecord', () => {
  it("lists newest first with the searcher's name; keywords and ip are OR-ed LIKE filters, user_id an IN filter", async () => {
    const member = await registerMember(backend.url);
    const [guest, mine, other] = await insertRecords(backend.dataDir, [
      { keywords: '机器学习', ip: '192.168.7.1' },
      { keywords: '年度报告', user_id: member.user.id, ip: '10.9.9.9' },
      { keywords: '机器人', ip: '172.16.0.5' },
    ]);
    const all = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { page: 1, size: 10 } });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.search_record.map((r: { id: number }) => r.id)).toEqual([other, mine, guest]);
    expect(all.body.search_record[1]).toMatchObject({
      keywords: '年度报告',
      user_id: member.user.id,
      username: member.username,
      ip: '10.9.9.9',
      total: 3,
      page: 1,
      user_agent: 'vitest',
      spend_time: 0.012,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(all.body.search_record[0].username).toBeUndefined();

    const either = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { keywords: '机器', ip: '10.9' } });
    expect(either.body.search_record.map((r: { id: number }) => r.id)).toEqual([other, mine, guest]);
    const byKeyword = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { keywords: '机器' } });
    expect(byKeyword.body.search_record.map((r: { id: number }) => r.id)).toEqual([other, guest]);
    const byUser = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { user_id: member.user.id } });
    expect(byUser.body).toMatchObject({ total: 1, search_record: [{ id: mine }] });
    const oldestFirst = await backend.admin('GET', '/api/v1/searchrecord/list', {
      query: { order: 'id asc', size: 1 },
    });
    expect(oldestFirst.body.search_record.map((r: { id: number }) => r.id)).toEqual([guest]);
  });
});

describe('DeleteSearchRecord', () => {
  it('deletes the listed records', async () => {
    const [a, b] = await insertRecords(backend.dataDir, [{ keywords: '待删除甲' }, { keywords: '待删除乙' }]);
    expect((await backend.admin('DELETE', '/api/v1/searchrecord', { query: { id: [a!, b!] } })).status).toBe(200);
    const left = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { keywords: '待删除' } });
    expect(left.body).toEqual({});
    const none = await backend.admin('DELETE', '/api/v1/searchrecord');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('请选择要操作的搜索记录（参数 id）');
  });
});

describe('retention', () => {
  let restarted: StartedBackend | undefined;
  afterAll(() => restarted?.close());

  it('purges records older than the retention at start and queues the next run a day later', async () => {
    const first = await startBackend();
    const purges = () =>
      withDatabase(first.dataDir, (db) =>
        db
          .selectFrom('job')
          .select(['state', 'run_after'])
          .where('kind', '=', 'search-record.purge')
          .orderBy('id')
          .execute(),
      );
    const done = async () => (await purges()).filter((j) => j.state === 'done').length;
    // The first start's run is over before the records are written and the backend stops: else
    // the restart's run, which the day's dedupe key folds into a run still queued, is that one
    // (a first run that had not ended by the stop left the restart none of its own, on PostgreSQL).
    await expect.poll(done, { timeout: 15_000 }).toBe(1);
    const token = await login(first.url, 'admin', first.adminPassword);
    await setConfig(first.url, token, { 'security.search_record_retention_days': '3' });
    const [old, recent] = await insertRecords(first.dataDir, [
      { keywords: '四天前', created_at: daysAgo(4) },
      { keywords: '两天前', created_at: daysAgo(2) },
    ]);
    await first.close({ keepData: true });

    restarted = await startBackend({ dataDir: first.dataDir });
    const adminToken = await login(restarted.url, 'admin', restarted.adminPassword);
    await expect
      .poll(async () => {
        const list = await api(restarted!.url, 'GET', '/api/v1/searchrecord/list', { token: adminToken });
        return (list.body.search_record ?? []).map((r: { id: number }) => r.id);
      })
      .toEqual([recent]);
    expect(old).toBeDefined();

    // The records go before the run is marked done and the next one queued: wait for both.
    await expect.poll(done).toBe(2);
    await expect.poll(async () => (await purges()).filter((j) => j.state === 'queued').length).toBe(1);
    const next = (await purges()).filter((j) => j.state === 'queued');
    expect(next).toHaveLength(1);
    expect(Date.parse(next[0]!.run_after) - Date.now()).toBeGreaterThan(23 * 3600_000);
  });

  it('deletes nothing when retention is 0 (nothing is recorded then either)', async () => {
    const first = await startBackend({ env: { CONFIG_SECURITY_SEARCH_RECORD_RETENTION_DAYS: '0' } });
    const [old] = await insertRecords(first.dataDir, [{ keywords: '很久以前', created_at: daysAgo(400) }]);
    const purgeRuns = () =>
      withDatabase(first.dataDir, async (db) =>
        Number(
          (
            await db
              .selectFrom('job')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('kind', '=', 'search-record.purge')
              .where('state', '=', 'done')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    // the run at the first start is over before it stops (else the restart's run is that one)
    await expect.poll(purgeRuns, { timeout: 15_000 }).toBe(1);
    await first.close({ keepData: true });
    const again = await startBackend({ dataDir: first.dataDir });
    try {
      await expect.poll(purgeRuns, { timeout: 15_000 }).toBe(2);
      const token = await login(again.url, 'admin', again.adminPassword);
      const list = await api(again.url, 'GET', '/api/v1/searchrecord/list', { token });
      expect(list.body.search_record.map((r: { id: number }) => r.id)).toEqual([old]);
    } finally {
      await again.close();
    }
  });
});
