// `npm run bench:postgres-api [-- --duration=10 --rounds=3 --connections=100]`: the embedded
// backend's API on PostgreSQL against the same backend on SQLite, in the same run: two
// backend processes (bench/processes/backend.ts), each with the same three converted
// documents, loaded by wrk in interleaved rounds (GetDocument, ListDocument, settings; the
// engines alternating first), so that the machine's load falls on both alike. The goal
// (bench/README.md): p50 on PostgreSQL ≤ 2× SQLite's. PostgreSQL is a throwaway cluster
// started here (as the tests start it: fsync off; these calls only read).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WrkRunner, type Measurement } from './lib/load';
import { startNodeProcess, type Started } from './lib/processes';
import { int, ms, ratio, table } from './lib/report';
import { publishDocuments } from './lib/site-content';
import { createDatabase, startPostgresCluster } from '../tests/helpers/postgres';

const option = (name: string, fallback: number) =>
  Number(/=(\d+)$/.exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ?? fallback);
const settings = {
  duration: option('duration', 10),
  warmup: option('warmup', 3),
  connections: option('connections', 100),
};
const rounds = option('rounds', 3);
const ADMIN_PASSWORD = 'bench-admin-password';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-bench-pg-'));
const cluster = await startPostgresCluster();
const started: Started[] = [];
try {
  const common = { ADMIN_PASSWORD, CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false' };
  const engines = {
    sqlite: await startNodeProcess(
      'backend-sqlite',
      'backend.ts',
      { ...common, DATA_DIR: path.join(dir, 'sqlite') },
      dir,
    ),
    postgres: await startNodeProcess(
      'backend-postgres',
      'backend.ts',
      { ...common, DATA_DIR: path.join(dir, 'postgres'), DATABASE_URL: await createDatabase(cluster.url) },
      dir,
    ),
  };
  started.push(engines.sqlite, engines.postgres);
  const titles = ['城市图书馆', '阅读的历史', '书与城市'];
  const content = {
    sqlite: await publishDocuments(engines.sqlite.url, ADMIN_PASSWORD, titles),
    postgres: await publishDocuments(engines.postgres.url, ADMIN_PASSWORD, titles),
  };
  const calls = (engine: 'sqlite' | 'postgres') => ({
    GetDocument: `/api/v1/document?id=${content[engine].documentIds[0]}`,
    ListDocument: `/api/v1/document/list?page=1&size=10&category_id=${content[engine].categoryId}`,
    settings: '/api/v1/settings',
  });
  const wrk = new WrkRunner('wrk', dir);
  const results = new Map<string, Measurement[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (const call of Object.keys(calls('sqlite')) as (keyof ReturnType<typeof calls>)[]) {
      const order: ('sqlite' | 'postgres')[] = round % 2 === 0 ? ['sqlite', 'postgres'] : ['postgres', 'sqlite'];
      for (const engine of order) {
        const m = await wrk.measure(
          { origin: engines[engine].url, requests: [{ path: calls(engine)[call] }] },
          settings,
        );
        results.set(`${call}|${engine}`, [...(results.get(`${call}|${engine}`) ?? []), m]);
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows: (string | number)[][] = [];
  const ratios: string[] = [];
  for (const call of Object.keys(calls('sqlite'))) {
    const of = (engine: string) => results.get(`${call}|${engine}`)!;
    for (const engine of ['sqlite', 'postgres']) {
      const runs = of(engine);
      rows.push([
        `${call} · ${engine}`,
        int(median(runs.map((r) => r.rps))),
        ms(median(runs.map((r) => r.p50))),
        ms(median(runs.map((r) => r.p99))),
        runs.reduce((s, r) => s + r.failures, 0),
      ]);
    }
    ratios.push(
      `- ${call}: PostgreSQL ÷ SQLite p50 **${ratio(median(of('postgres').map((r) => r.p50)), median(of('sqlite').map((r) => r.p50)))}**, req/s ${ratio(median(of('postgres').map((r) => r.rps)), median(of('sqlite').map((r) => r.rps)))}`,
    );
  }
  console.log(
    `\nThe embedded backend's API, ${settings.connections} connections, ${rounds} interleaved rounds of ${settings.duration} s (medians):\n`,
  );
  console.log(table(['call · engine', 'req/s', 'p50 ms', 'p99 ms', 'failures'], rows));
  console.log(`\n${ratios.join('\n')}`);
} finally {
  for (const process of started) await process.stop();
  await cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
