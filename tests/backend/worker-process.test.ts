// The worker as a real process (node on the production build's backend/worker.mjs, as the image and
// `npm run start:worker` run it; `npm run worker` runs the same main() from source through tsx:
// tests/ops/npm-start.test.ts), beside a backend started with RUN_JOBS=false on the same database:
// the web side enqueues, the worker converts; the worker removes the scratch folders of
// conversions whose process is gone, and stops on SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyPassword } from '../../backend/platform/auth/password';
import { DocumentStatus } from '../../shared/constants';
import { login, startBackend, withDatabase, type StartedBackend } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { databaseEnv } from '../helpers/test-database';

/**
 * The web backend's job poll interval (JOB_POLL_MS, 1 s by default): a process that runs jobs claims a due one
 * within it.
 */
const POLL_MS = 250;
const WORKER = path.join(inject('serverBundles'), 'backend/worker.mjs');

interface Worker {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [WORKER], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: child,
    output: () => output,
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
}

async function untilRunning(worker: Worker): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!worker.output().includes('worker running jobs')) {
    if (worker.process.exitCode !== null || Date.now() > deadline)
      throw new Error(`the worker did not start:\n${worker.output()}`);
    await sleep(50);
  }
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const { pid } = spawnSync('true');
  return pid!;
}

let web: StartedBackend;
let scratchRoot: string;
const workers: Worker[] = [];

beforeAll(async () => {
  web = await startBackend({ env: { RUN_JOBS: 'false', JOB_POLL_MS: String(POLL_MS) } });
  scratchRoot = await mkdtemp(path.join(os.tmpdir(), 'moredoc-worker-tmp-'));
});
afterAll(async () => {
  for (const worker of workers) if (worker.process.exitCode === null) worker.process.kill('SIGKILL');
  await web?.close();
  await rm(scratchRoot, { recursive: true, force: true });
});

describe('backend/worker.mjs beside a web backend with RUN_JOBS=false', () => {
  it('leaves the conversion queued on the web side; the worker converts it, clears dead scratch folders and stops on SIGTERM', async () => {
    const admin = await login(web.url, 'admin', web.adminPassword);
    const member = await uploader(web.url, admin);
    const document = await createDocument(web.url, member.token, textPdf(3), 'queued.pdf');
    // Two of its polls: a backend that ran jobs would have claimed the conversion by now.
    await sleep(2 * POLL_MS);
    const queued = await withDatabase(web.dataDir, (db) =>
      db.selectFrom('job').select(['state', 'attempts']).where('kind', '=', 'document.convert').execute(),
    );
    expect(queued).toEqual([{ state: 'queued', attempts: 0 }]);

    // What a killed worker left: its scratch folders name its pid. A live process's stay.
    const dead = deadPid();
    const abandoned = [
      path.join(scratchRoot, `moredoc-document-${dead}-a1b2c3`),
      path.join(scratchRoot, 'moredoc-convert', `job-${dead}-d4e5f6`),
      // its engine's LibreOffice profiles (platform/convert/converter.ts)
      path.join(scratchRoot, 'moredoc-convert', `profiles-${dead}-j1k2l3`),
    ];
    const alive = path.join(scratchRoot, `moredoc-document-${process.pid}-g7h8i9`);
    for (const folder of [...abandoned, alive]) await mkdir(path.join(folder, 'out'), { recursive: true });

    const worker = spawnWorker({
      ...(await databaseEnv(web.dataDir)),
      DATA_DIR: web.dataDir,
      TMPDIR: scratchRoot,
      CONVERT_WORKERS: '1',
    });
    workers.push(worker);
    await untilRunning(worker);
    const converted = await waitForStatus(web.url, member.token, document.id, [
      DocumentStatus.Converted,
      DocumentStatus.Failed,
    ]);
    expect(converted).toMatchObject({ status: DocumentStatus.Converted, pages: 3 });
    for (const folder of abandoned) expect(existsSync(folder), folder).toBe(false);
    expect(existsSync(alive)).toBe(true);
    // The conversion's own scratch folder goes when it ends, which may be just after the document says converted.
    const scratch = () =>
      spawnSync('ls', [scratchRoot])
        .stdout.toString()
        .split('\n')
        .filter((name) => name.startsWith('moredoc-document-'));
    for (const deadline = Date.now() + 10_000; scratch().length > 1 && Date.now() < deadline;) await sleep(50);
    expect(scratch()).toEqual([path.basename(alive)]);

    worker.process.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 120_000);

  it('prints the admin password it generated when it is the first process on a new database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'moredoc-worker-first-'));
    try {
      const worker = spawnWorker({ DATA_DIR: dataDir });
      workers.push(worker);
      await untilRunning(worker);
      // No web instance started later on this database prints it: it finds the account made.
      const password =
        /Created the administrator account: username "admin", password "([\w-]{12,})" \(shown only once/.exec(
          worker.output(),
        )?.[1];
      expect(password, worker.output()).toBeDefined();
      worker.process.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      const stored = await withDatabase(dataDir, (db) =>
        db.selectFrom('user').select('password').where('username', '=', 'admin').executeTakeFirstOrThrow(),
      );
      expect(await verifyPassword(password!, stored.password)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a RUN_JOBS that is not true or false', async () => {
    const worker = spawnWorker({ DATA_DIR: web.dataDir, RUN_JOBS: 'sometimes' });
    workers.push(worker);
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('Configuration error: RUN_JOBS must be true or false, got "sometimes"');
  });
});
