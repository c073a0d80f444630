import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { api, login, startBackend, TEST_ENGINE, withDatabase, withSearchIndex } from '../../helpers/backend';
import { createDocument, uploadDocument, uploader, waitForStatus } from '../../helpers/document-api';
import { jpegPdf, scanJpegs, textPdf } from '../../helpers/documents';

// A backend process killed (SIGKILL) in the middle of a conversion loses nothing: on the next
// start with the same DATA_DIR the job's lease runs out (JOB_LEASE_MS), the job runs again, and the
// document ends converted. And every start picks up documents that wait without a job, or whose job
// gave up.

const PASSWORD = 'restart-admin-password';
/**
 * The jobs' lease (30 s by default): what a dead process's job waits before it runs again. Long
 * enough that a loaded machine never lets a live process's lease lapse between its renewals (every
 * third of it); the tests end a dead process's lease in the database rather than wait for it.
 */
const LEASE_MS = 5000;
/** The interrupted document's pages: seconds of rendering after the first page is reported, when the process is killed. */
const PAGES = 400;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-convert-restart-'));
const children: ChildProcess[] = [];

/**
 * The standalone backend as the image runs it (node on the production build's backend/server.mjs),
 * in a process group of its own, on SQLite in either project.
 */
function startServer(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(inject('serverBundles'), 'backend/server.mjs')], {
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        BACKEND_PORT: '0',
        ADMIN_PASSWORD: PASSWORD,
        LOG_LEVEL: 'warn',
        JOB_LEASE_MS: String(LEASE_MS),
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
        CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'false',
      },
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) resolve({ url: match[1]!, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`backend exited with ${code}: ${output}`)));
  });
}

/**
 * Ends the leases of the jobs a killed process held, as their running out would: the claim compares
 * lease_expires_at with the database's clock. The wait itself, across processes, is
 * job-queue.test.ts's (a 1 s lease) and scale-faults.test.ts's (a worker killed mid-conversion).
 */
const endLeases = () =>
  withDatabase(dataDir, (db) =>
    db
      .updateTable('job')
      .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('state', '=', 'running')
      .execute(),
  );

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

afterAll(() => {
  for (const child of children) killGroup(child, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// The two suites below start the backend's process on SQLite whatever the project (its processes get no
// DATABASE_URL): server-postgres would run them again unchanged. A worker killed mid-conversion on
// PostgreSQL is tests/ops/scale-faults.test.ts's.
const killedProcesses = describe.skipIf(TEST_ENGINE === 'postgres');

killedProcesses('killing the process during a conversion', () => {
  it('runs the job again after a restart, and the document ends converted', async () => {
    const first = await startServer();
    const adminToken = await login(first.url, 'admin', PASSWORD);
    const member = await uploader(first.url, adminToken);
    const doc = await createDocument(first.url, member.token, textPdf(PAGES), '转换中被中断.pdf');

    for (;;) {
      const res = await api(first.url, 'GET', '/api/v1/document', { token: member.token, query: { id: doc.id } });
      if ((res.body.convert_progress?.done ?? 0) > 0) break;
      expect(res.body.status ?? 0).not.toBe(2);
      await sleep(20);
    }
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    killGroup(first.child, 'SIGKILL');
    await exited;
    // JOB_LEASE_MS reached the queue: the dead process's claim ends at most that long after its last renewal.
    const lease = await withDatabase(dataDir, (db) =>
      db
        .selectFrom('job')
        .select('lease_expires_at')
        .where('kind', '=', 'document.convert')
        .where('state', '=', 'running')
        .executeTakeFirstOrThrow(),
    );
    expect(Date.parse(lease.lease_expires_at!) - Date.now()).toBeLessThanOrEqual(LEASE_MS);
    await endLeases();

    const second = await startServer();
    const before = await api(second.url, 'GET', '/api/v1/document', { token: member.token, query: { id: doc.id } });
    expect(before.body.status).toBe(1);
    const done = await waitForStatus(second.url, member.token, doc.id, [2, 3], 90_000);
    expect(done).toMatchObject({ status: 2, pages: PAGES });
    const last = await fetch(`${second.url}/view/page/${doc.hash}/${PAGES}.svg`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(last.status).toBe(200);
    killGroup(second.child, 'SIGTERM');
  }, 150_000);
});

killedProcesses('killing the process while a scan’s pages are brought to reading resolution', () => {
  it('goes on after a restart from what the manifest says is left, and ends with WebPs only', async () => {
    const [jpeg] = await scanJpegs(1, 200);
    const pages = 40;
    const first = await startServer();
    const adminToken = await login(first.url, 'admin', PASSWORD);
    const member = await uploader(first.url, adminToken);
    const doc = await createDocument(
      first.url,
      member.token,
      jpegPdf(Array.from({ length: pages }, () => ({ jpeg: jpeg! }))),
      '扫描中被中断.pdf',
    );
    await waitForStatus(first.url, member.token, doc.id, [2], 120_000);
    // The page images job has started on its first 16 pages; the manifest names the JPEGs.
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    killGroup(first.child, 'SIGKILL');
    await exited;
    const folder = path.join(dataDir, 'documents', ...doc.hash.slice(0, 5).split(''), doc.hash);
    const manifest = () =>
      JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as {
        pageFiles: string[];
        pendingImages?: object;
      };
    expect(manifest().pageFiles.at(-1)).toBe(`${pages}.jpg`);
    await endLeases();

    const second = await startServer();
    const deadline = Date.now() + 90_000;
    while (manifest().pendingImages) {
      if (Date.now() > deadline) throw new Error(`the page images job did not end: ${JSON.stringify(manifest())}`);
      await sleep(250);
    }
    expect(manifest().pageFiles).toEqual(Array.from({ length: pages }, (_, i) => `${i + 1}.webp`));
    // The JPEGs a batch replaced are deleted just after the manifest that no longer names them.
    await expect
      .poll(() => fs.readdirSync(folder).filter((name) => name.endsWith('.jpg')), { timeout: 10_000 })
      .toEqual([]);
    const last = await fetch(`${second.url}/view/page/${doc.hash}/${pages}.svg`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(last.headers.get('content-type')).toBe('image/webp');
    killGroup(second.child, 'SIGTERM');
  }, 150_000);
});

describe('at every start', () => {
  it('queues documents that wait for the converter without a job (a database from MOREDOC)', async () => {
    const first = await startBackend();
    const adminToken = await login(first.url, 'admin', first.adminPassword);
    const member = await uploader(first.url, adminToken);
    const upload = await uploadDocument(first.url, member.token, Buffer.from('迁移来的文档\n'), '迁移.txt');
    await first.close({ keepData: true });
    const { id, hash } = await withDatabase(first.dataDir, async (db) => {
      const { hash, size } = await db
        .selectFrom('attachment')
        .select(['hash', 'size'])
        .where('id', '=', upload.body.data.id)
        .executeTakeFirstOrThrow();
      const ts = new Date().toISOString();
      const row = await db
        .insertInto('document')
        .values({
          title: '迁移来的文档',
          user_id: member.user.id,
          uuid: 'abcdef0123456789',
          size,
          ext: '.txt',
          status: 0,
          hash,
          attachment_id: upload.body.data.id,
          created_at: ts,
          updated_at: ts,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, hash };
    });
    const second = await startBackend({ dataDir: first.dataDir });
    try {
      expect(await waitForStatus(second.url, member.token, id, [2, 3])).toMatchObject({ status: 2, pages: 1 });
      // Queued on behalf of its uploader, whose share of the converter it takes.
      const job = await withDatabase(first.dataDir, (db) =>
        db
          .selectFrom('job')
          .select('fair_key')
          .where('dedupe_key', '=', `document.convert:${hash}`)
          .executeTakeFirstOrThrow(),
      );
      expect(job.fair_key).toBe(`user:${member.user.id}`);
    } finally {
      await second.close();
    }
  });

  it('fails documents left converting by a job that gave up', async () => {
    const first = await startBackend();
    const adminToken = await login(first.url, 'admin', first.adminPassword);
    const member = await uploader(first.url, adminToken);
    const doc = await createDocument(first.url, member.token, Buffer.from('转换进程一再崩溃\n'), '崩溃.txt');
    await waitForStatus(first.url, member.token, doc.id, [2]);
    await first.close({ keepData: true });
    await withDatabase(first.dataDir, async (db) => {
      await db.updateTable('document').set({ status: 1 }).where('id', '=', doc.id).execute();
      await db
        .updateTable('job')
        .set({ state: 'failed', last_error: '任务执行中断' })
        .where('dedupe_key', '=', `document.convert:${doc.hash}`)
        .execute();
    });
    const second = await startBackend({ dataDir: first.dataDir });
    try {
      expect(await waitForStatus(second.url, member.token, doc.id, [3])).toMatchObject({
        convert_error: '文档转换进程多次意外中断，已停止转换',
      });
    } finally {
      await second.close();
    }
  });

  it('refills an empty search index from the documents', async () => {
    const first = await startBackend();
    const adminToken = await login(first.url, 'admin', first.adminPassword);
    const member = await uploader(first.url, adminToken);
    const doc = await createDocument(first.url, member.token, Buffer.from('一只犰狳在图书馆里看书\n'), '犰狳.txt');
    await waitForStatus(first.url, member.token, doc.id, [2]);
    await first.close({ keepData: true });
    const search = () =>
      withSearchIndex(first.dataDir, 'document', async (index) =>
        (await index.search({ text: '犰狳' })).hits.map((h) => h.id),
      );
    await withSearchIndex(first.dataDir, 'document', (index) => index.clear());
    expect(await search()).toEqual([]);
    const second = await startBackend({ dataDir: first.dataDir });
    try {
      await expect.poll(search, { timeout: 15_000 }).toEqual([doc.id]);
    } finally {
      await second.close();
    }
  });
});
