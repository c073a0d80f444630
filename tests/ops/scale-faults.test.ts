// Many instances and their faults, as real processes on loopback: a PostgreSQL cluster of this
// file's own (it is stopped and started again), the S3 test server, two web instances
// (the gateway with the embedded backend, RUN_JOBS=false) and two workers, started as compose
// starts them (node on the production build's gateway/server.mjs and backend/worker.mjs), with
// the load balancer of tests/helpers/load-balancer.ts in front.
// The processes start once for the file; the tests run in order and share them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { outputFolder } from '../../backend/modules/document/files';
import { DocumentStatus } from '../../shared/constants';
import { FIXTURE_DIST } from '../gateway/helpers';
import { linesPdf, repeatedPdf } from '../helpers/documents';
import { startLoadBalancer, type LoadBalancer } from '../helpers/load-balancer';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { startS3, type TestS3 } from '../helpers/s3';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import { freePort } from '../helpers/ports';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How long a claimed job stays with a worker that stopped renewing it. */
const LEASE_MS = 2000;
/**
 * A call with no answer after this long counts as hung. A bound that only fails a test, never one a
 * passing run waits out, so it is far above what a call takes on a loaded machine (a read under
 * the restart's 100 connections took over 8 s at a load of 20): where a test needs an answer
 * before something happens (the database's return), it waits for that answer first.
 */
const HANG_MS = 60_000;
/**
 * How long a client of load() waits after a call that failed before its next, as a reader's 重试 does not come at
 * once: while the database is away the instances answer 503 at once, and 20 clients calling again without a pause
 * kept the machine's cores busy on those answers for the outage's 10 s. A second, as a person clicks again: the
 * calls go on meanwhile (20 clients, a call a second each at most, against the more than 20 the test asks for).
 */
const RETRY_PAUSE_MS = 1000;

interface Instance {
  name: string;
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  env: Record<string, string>;
  /** a web instance's address */
  url?: string;
}

function spawnInstance(name: string, bundle: string, env: Record<string, string>, ready: RegExp): Promise<Instance> {
  const child = spawn(process.execPath, [path.join(inject('serverBundles'), bundle)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const instance: Instance = {
    name,
    process: child,
    output: () => output,
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    env,
  };
  return (async () => {
    const deadline = Date.now() + 90_000;
    while (!ready.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
      await sleep(50);
    }
    return instance;
  })();
}

const startWeb = (name: string, env: Record<string, string>) =>
  spawnInstance(name, 'gateway/server.mjs', env, /running at http:\/\//).then((instance) => ({
    ...instance,
    url: `http://127.0.0.1:${env.PORT}`,
  }));
const startWorker = (name: string, env: Record<string, string>) =>
  spawnInstance(name, 'backend/worker.mjs', env, /worker running jobs/);

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
  bytes: Buffer;
}

/** One HTTP call; a call that has no answer within HANG_MS fails the test that made it. */
async function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; cookie?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = `token=${opts.cookie}`;
  let body: string | FormData | undefined = opts.form;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + url, {
    method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(HANG_MS),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    body: type.includes('json') ? JSON.parse(bytes.toString()) : bytes.toString(),
  };
}

/** Signs in (or registers) through a web instance: the token it put in the cookie. */
async function signIn(base: string, url: string, body: Record<string, string>): Promise<string> {
  const res = await call(base, 'POST', url, { body });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  const token = /(?:^|,\s*)token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`${url}: no token cookie`);
  return token;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface Outcome {
  kind: 'read' | 'write';
  status: number;
  /** the JSON error's message, or the failure of the call itself (no answer within HANG_MS) */
  error?: string;
  /** what a write creates (a category's title) */
  title?: string;
  at: number;
  ms: number;
}

/**
 * `connections` clients each calling in turn until stopped: one call in five a write (an admin
 * creates a category, named by the call), the others read a document or one of its pages. A client
 * whose call failed waits RETRY_PAUSE_MS before its next.
 */
function load(name: string, base: string, connections: number, adminToken: string, doc: { id: number; page: string }) {
  const outcomes: Outcome[] = [];
  /** the start of each call still waiting for its answer */
  const waiting = new Set<{ at: number }>();
  let running = true;
  let n = 0;
  const client = async () => {
    while (running) {
      const i = n++;
      const kind = i % 5 === 0 ? 'write' : 'read';
      const started = Date.now();
      const title = `${name}-${i}`;
      const pending = { at: started };
      waiting.add(pending);
      let answered = false;
      try {
        const res =
          kind === 'write'
            ? await call(base, 'POST', '/api/v1/category', { token: adminToken, body: { title, enable: false } })
            : i % 2
              ? await call(base, 'GET', `/api/v1/document?id=${doc.id}`)
              : await call(base, 'GET', doc.page, { headers: { 'accept-encoding': 'identity' } });
        const outcome: Outcome = { kind, status: res.status, at: started, ms: Date.now() - started };
        if (res.status !== 200)
          outcome.error = typeof res.body === 'object' ? res.body.message : String(res.body).slice(0, 200);
        if (kind === 'write') outcome.title = title;
        outcomes.push(outcome);
        answered = res.status === 200;
      } catch (error) {
        outcomes.push({ kind, status: 0, error: String(error), at: started, ms: Date.now() - started });
      } finally {
        waiting.delete(pending);
      }
      if (running && !answered) await sleep(RETRY_PAUSE_MS);
    }
  };
  const clients = Array.from({ length: connections }, () => client());
  return {
    outcomes,
    /** Whether every call made before `time` has its answer. */
    answeredBefore: (time: number) => [...waiting].every((pending) => pending.at >= time),
    async stop() {
      running = false;
      await Promise.all(clients);
      return outcomes;
    },
  };
}

const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)(
  'many instances: two web instances and two workers on PostgreSQL and S3, behind a load balancer',
  () => {
    let cluster: PostgresCluster;
    let databaseUrl: string;
    let db: pg.Pool;
    let s3: TestS3;
    let lb: LoadBalancer;
    const web: Instance[] = [];
    const workers: Instance[] = [];
    const folders: string[] = [];
    let adminToken = '';
    let member: { token: string; id: number };
    let firstDocument: { id: number; hash: string; page: string };

    const folder = async (name: string) => {
      const made = await mkdtemp(path.join(os.tmpdir(), `moredoc-scale-${name}-`));
      folders.push(made);
      return made;
    };

    beforeAll(async () => {
      [cluster, s3] = await Promise.all([startPostgresCluster(), startS3()]);
      databaseUrl = await createDatabase(cluster.url);
      db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      db.on('error', () => undefined);
      const shared = {
        ...CAPTCHAS_OFF,
        ...s3.env,
        DATABASE_URL: databaseUrl,
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        JOB_LEASE_MS: String(LEASE_MS),
        // Until the secrets live in the database, every instance gets the same ones: the login
        // key, and the download links' key (else each instance generates its own into DATA_DIR).
        JWT_SECRET: 'scale-test-jwt-secret-0123456789',
        CONFIG_DOWNLOAD_SECRET_KEY: 'scale-test-download-secret-0123456789',
      };
      const webEnv = async (name: string) => ({
        ...shared,
        DATA_DIR: await folder(name),
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        WEB_DIST: FIXTURE_DIST,
        RUN_JOBS: 'false',
        TRUST_PROXY: '127.0.0.1',
      });
      const workerEnv = async (name: string) => ({
        ...shared,
        DATA_DIR: await folder(name),
        TMPDIR: await folder(`${name}-tmp`),
        CONVERT_WORKERS: '1',
        CONVERT_JOBS: '1',
      });
      // One instance creates the tables and runs the seed first; the others find them.
      web.push(await startWeb('web-a', await webEnv('web-a')));
      const rest = await Promise.all([
        startWeb('web-b', await webEnv('web-b')),
        startWorker('worker-1', await workerEnv('worker-1')),
        startWorker('worker-2', await workerEnv('worker-2')),
      ]);
      web.push(rest[0]);
      workers.push(rest[1], rest[2]);
      lb = await startLoadBalancer(web.map((instance) => instance.url!));
      adminToken = await signIn(web[0]!.url!, '/api/v1/user/login', {
        username: 'admin',
        password: TEST_ADMIN_PASSWORD,
      });
    }, 240_000);

    // What the processes said, when a test failed: the reason is often there.
    afterEach(({ task }) => {
      if (task.result?.state !== 'fail') return;
      for (const instance of [...web, ...workers]) {
        process.stderr.write(
          `--- ${instance.name} (pid ${instance.process.pid}, exit ${instance.process.exitCode ?? instance.process.signalCode ?? 'none'}):\n${instance.output().slice(-4000)}\n`,
        );
      }
    });

    afterAll(async () => {
      for (const instance of [...web, ...workers])
        if (instance.process.exitCode === null) instance.process.kill('SIGKILL');
      await lb?.close();
      await db?.end();
      await cluster?.stop();
      await s3?.stop();
      for (const made of folders) await rm(made, { recursive: true, force: true });
    });

    it('serves on B what a member did on A: the conversion a worker made, the search, the download link, the sign-in', async () => {
      const [a, b] = [web[0]!.url!, web[1]!.url!];
      const username = `scale${process.pid}`;
      const token = await signIn(a, '/api/v1/user/register', { username, password: 'member-password' });
      const me = await call(a, 'GET', '/api/v1/user', { cookie: token });
      member = { token, id: me.body.id };
      // Signed in on A, signed in on B: the same cookie names the same member there.
      expect((await call(b, 'GET', '/api/v1/user', { cookie: token })).body).toMatchObject({ id: member.id, username });

      const group = await call(b, 'POST', '/api/v1/group', {
        token: adminToken,
        body: { title: '上传者', enable_upload: true, enable_document_review: false },
      });
      expect(group.status).toBe(200);
      expect(
        (
          await call(b, 'PUT', '/api/v1/user', {
            token: adminToken,
            body: { id: member.id, group_id: [2, group.body.id] },
          })
        ).status,
      ).toBe(200);

      const original = linesPdf([['Scalable zebrafinch migration notes', 'second line'], ['page two of the notes']]);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(original)]), 'notes.pdf');
      const upload = await call(a, 'POST', '/api/v1/upload/document', { token, form });
      expect(upload.status).toBe(200);
      const created = await call(a, 'POST', '/api/v1/document', {
        token,
        body: { category_id: [], document: [{ title: '迁徙笔记', attachment_id: upload.body.data.id, price: 0 }] },
      });
      expect(created.status).toBe(200);
      const list = await call(a, 'GET', `/api/v1/document/list?user_id=${member.id}`, { token });
      const id = list.body.document[0].id as number;

      const converted = await until('the conversion on a worker', async () => {
        const doc = await call(b, 'GET', `/api/v1/document?id=${id}`, { token });
        return [DocumentStatus.Converted, DocumentStatus.Failed].includes(doc.body.status) ? doc.body : undefined;
      });
      expect(converted).toMatchObject({ status: DocumentStatus.Converted, pages: 2 });
      const hash = converted.attachment.hash as string;
      const page = `/view/page/${hash}/1${converted.enable_gzip ? '.gzip' : ''}${converted.preview_ext}`;
      firstDocument = { id, hash, page };
      const served = await call(b, 'GET', page, { headers: { 'accept-encoding': 'identity' } });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

      // The index follows the conversion (written by the worker): found on the other instance once it is.
      await until(
        'the document found by search on the other instance',
        async () => {
          const search = await call(b, 'GET', '/api/v1/document/search?wd=zebrafinch');
          expect(search.status).toBe(200);
          return (search.body.document ?? []).some((d: { id: number }) => d.id === id) ? true : undefined;
        },
        HANG_MS,
      );

      const link = await call(a, 'GET', `/api/v1/document/download?id=${id}`, { token });
      expect(link.status).toBe(200);
      const file = await call(b, 'GET', link.body.url as string, { cookie: token });
      expect(file.status).toBe(200);
      expect(file.bytes.equals(original)).toBe(true);
    }, 120_000);

    /** The titles of the categories the writes of `name` created, as the database has them. */
    const storedTitles = async (name: string) =>
      new Set(
        (await db.query<{ title: string }>('SELECT title FROM category WHERE title LIKE $1', [`${name}-%`])).rows.map(
          (row) => row.title,
        ),
      );

    it('answers a clear 503 while PostgreSQL is stopped for 10 s, and recovers by itself as soon as it returns; no acknowledged write lost', async () => {
      const traffic = load('pg', lb.url, 20, adminToken, firstDocument);
      await until('the load under way', async () =>
        traffic.outcomes.filter((o) => o.status === 200).length > 50 ? true : undefined,
      );
      const stoppedAt = Date.now();
      await cluster.pause!();
      // Readiness asks the database, not the settings kept in memory: an instance says it cannot serve.
      const readiness = async () =>
        Promise.all(web.map(async (instance) => (await fetch(`${instance.url}/readyz`)).status));
      await sleep(1_000);
      expect(await readiness()).toEqual(web.map(() => 503));
      await sleep(9_000);
      // Every call made while the database is away has its answer before it returns: none waits for it.
      const asked = Date.now();
      await until(
        'an answer to every call made while the database is away',
        async () => (traffic.answeredBefore(asked) ? true : undefined),
        HANG_MS,
      );
      await cluster.resume!();
      const backAt = Date.now();
      // The site by itself: calls of each kind that succeed after the return.
      await until(
        'the reads and writes back',
        async () => {
          const done = traffic.outcomes.filter((o) => o.at >= backAt && o.status === 200);
          return done.some((o) => o.kind === 'read') && done.some((o) => o.kind === 'write') ? true : undefined;
        },
        HANG_MS,
      );
      const outcomes = await traffic.stop();

      const during = outcomes.filter((o) => o.at > stoppedAt + 500 && o.at + o.ms < backAt);
      // Calls went on while the database was away, and each had its answer before it returned.
      expect(during.length).toBeGreaterThan(20);
      const failures = during.filter((o) => o.status !== 200);
      expect(failures.length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status === 0)).toEqual([]);
      // Every failure is the one clear answer: 503 with the backend's JSON error, no 500, no 502.
      expect(new Set(failures.map((o) => `${o.status} ${o.error}`))).toEqual(
        new Set(['503 数据库暂时不可用，请稍后再试']),
      );
      // At once, whatever the machine's speed: no call made after the return fails (a pause before
      // the instances tried the database again would fail the calls made meanwhile).
      expect(outcomes.filter((o) => o.at >= backAt && o.status !== 200).map((o) => `${o.status} ${o.error}`)).toEqual(
        [],
      );
      expect(await readiness()).toEqual(web.map(() => 200));
      for (const instance of [...web, ...workers]) expect(instance.process.exitCode, instance.name).toBeNull();

      const acknowledged = outcomes.filter((o) => o.title && o.status === 200).map((o) => o.title!);
      const stored = await storedTitles('pg');
      expect(acknowledged.filter((title) => !stored.has(title))).toEqual([]);
    }, 180_000);

    it('answers clear errors while the S3 server is stopped, keeps nothing half-written, and works again when it returns', async () => {
      const attachments = async () =>
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM attachment')).rows[0]!.n;
      const before = { attachments: await attachments(), objects: s3.objectKeys() };
      const upload = () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(linesPdf([[`stored while away ${Date.now()}`]]))]), 'away.pdf');
        return call(lb.url, 'POST', '/api/v1/upload/document', { token: member.token, form });
      };
      // Page 2, read by nobody yet: page 1, read under load a moment ago, may still be in an
      // instance's cache of small blobs (S3_CACHE_MB, 10 s), which serves it while the bucket is away.
      const unread = firstDocument.page.replace(`/${firstDocument.hash}/1`, `/${firstDocument.hash}/2`);
      await s3.pause();
      try {
        const refused = await upload();
        // The upload routes answer gin's shape: {code, message, error}.
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 503, message: '文件存储暂时不可用，请稍后再试' });
        const page = await call(lb.url, 'GET', unread, { headers: { 'accept-encoding': 'identity' } });
        expect(page.status).toBe(503);
        expect(page.body).toMatchObject({ code: 14, message: '文件存储暂时不可用，请稍后再试' });
        // The site's own pages and data do not need the bucket.
        expect((await call(lb.url, 'GET', `/api/v1/document?id=${firstDocument.id}`)).status).toBe(200);
      } finally {
        await s3.resume();
      }
      // Nothing of the refused upload: no attachment row, no object.
      expect(await attachments()).toBe(before.attachments);
      expect(s3.objectKeys()).toEqual(before.objects);
      expect(s3.pendingUploads()).toEqual([]);

      // Back: the same calls succeed, on either instance.
      for (const base of [web[0]!.url!, web[1]!.url!]) {
        const page = await until(
          'the page back',
          async () => {
            const res = await call(base, 'GET', unread, { headers: { 'accept-encoding': 'identity' } });
            return res.status === 200 ? res : undefined;
          },
          HANG_MS,
        );
        expect(page.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      }
      expect((await upload()).status).toBe(200);
      expect(await attachments()).toBe(before.attachments + 1);
    }, 180_000);

    it('restarts a web instance under load (100 connections): no read fails, no write is refused or lost, only writes cut in its accept queue fail', async () => {
      const before = { ...lb.stats };
      const started = Date.now();
      const traffic = load('restart', lb.url, 100, adminToken, firstDocument);
      await until('the load under way', async () =>
        traffic.outcomes.filter((o) => o.status === 200).length > 200 ? true : undefined,
      );
      const phases = [`load under way ${Date.now() - started} ms`];
      const [a] = web;
      a!.process.kill('SIGTERM');
      // Graceful: it finished what it had, then exited on its own.
      expect(await a!.exited).toBe(0);
      phases.push(`instance A exited ${Date.now() - started} ms`);
      const restarted = await startWeb(a!.name, a!.env);
      web[0] = restarted;
      const backAt = Date.now();
      phases.push(`instance A back ${backAt - started} ms`);
      // Until the load balancer has sent the restarted instance calls again (after its fail_timeout), and more
      // than 1,000 calls were made in all: on a loaded machine the restart may be over before that many.
      await until(
        'calls on the restarted instance',
        async () =>
          traffic.outcomes.length > 1000 &&
          traffic.outcomes.filter((o) => o.at > backAt + 2500 && o.status === 200).length > 100
            ? true
            : undefined,
        HANG_MS,
      );
      const outcomes = await traffic.stop();
      phases.push(
        `load stopped ${Date.now() - started} ms, ${outcomes.length} calls, ${lb.stats.cutWrites - before.cutWrites} writes cut`,
      );
      process.stdout.write(`restart under load: ${phases.join('; ')}\n`);

      expect(outcomes.length).toBeGreaterThan(1000);
      // Reads: none fails (one cut on the closing instance is retried on the other, as nginx does).
      expect(
        outcomes.filter((o) => o.kind === 'read' && o.status !== 200).map((o) => `${o.status} ${o.error}`),
      ).toEqual([]);
      // Writes: none is answered 503 by the closing instance; the only failures are the load
      // balancer's 502 for writes whose connection the instance's kernel had taken but the
      // process never read (its accept queue when the port closed): nginx does not resend a
      // POST that was sent. The instance did not act on them, and no acknowledged write is lost.
      const failedWrites = outcomes.filter((o) => o.kind === 'write' && o.status !== 200);
      expect(failedWrites.every((o) => o.status === 502)).toBe(true);
      expect(failedWrites.length).toBe(lb.stats.cutWrites - before.cutWrites);
      expect(lb.stats.ownErrors - before.ownErrors).toBe(failedWrites.length);
      const acknowledged = outcomes.filter((o) => o.title && o.status === 200).map((o) => o.title!);
      const stored = await storedTitles('restart');
      expect(acknowledged.filter((title) => !stored.has(title))).toEqual([]);
      expect(failedWrites.filter((o) => stored.has(o.title!))).toEqual([]);
    }, 240_000);

    it('finishes on the other worker a 200-page conversion whose worker was killed midway: each page once, no orphan objects, its scratch removed', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(repeatedPdf(200))]), 'long.pdf');
      const upload = await call(lb.url, 'POST', '/api/v1/upload/document', { token: member.token, form });
      expect(upload.status).toBe(200);
      expect(
        (
          await call(lb.url, 'POST', '/api/v1/document', {
            token: member.token,
            body: { category_id: [], document: [{ title: '两百页', attachment_id: upload.body.data.id, price: 0 }] },
          })
        ).status,
      ).toBe(200);

      // Midway: some pages rendered, not all.
      const running = await until('the conversion midway', async () => {
        const {
          rows: [job],
        } = await db.query<{ dedupe_key: string; lease_owner: string; progress: string | null }>(
          "SELECT dedupe_key, lease_owner, progress FROM job WHERE kind = 'document.convert' AND state = 'running'",
        );
        const progress = job?.progress ? (JSON.parse(job.progress) as { done: number; total: number }) : undefined;
        return progress && progress.done > 0 && progress.done < progress.total ? job : undefined;
      });
      const hash = running.dedupe_key.slice('document.convert:'.length);
      // lease_owner: host:pid:random#claim
      const pid = Number(running.lease_owner.split(':')[1]);
      const victim = workers.find((worker) => worker.process.pid === pid)!;
      expect(victim).toBeDefined();
      victim.process.kill('SIGKILL');
      await victim.exited;
      const scratchOf = (tmp: string) => [
        ...readdirSync(tmp).filter((name) => name.startsWith(`moredoc-document-${pid}-`)),
        ...(existsSync(path.join(tmp, 'moredoc-convert'))
          ? readdirSync(path.join(tmp, 'moredoc-convert')).filter((name) => name.startsWith(`job-${pid}-`))
          : []),
      ];
      // What the killed conversion left behind: the original's copy and the pages so far.
      expect(scratchOf(victim.env.TMPDIR!)).toHaveLength(2);

      const list = await call(lb.url, 'GET', `/api/v1/document/list?user_id=${member.id}&order=id%20desc`, {
        token: member.token,
      });
      const id = list.body.document[0].id as number;
      const converted = await until(
        'the conversion on the other worker',
        async () => {
          const doc = await call(lb.url, 'GET', `/api/v1/document?id=${id}`, { token: member.token });
          return [DocumentStatus.Converted, DocumentStatus.Failed].includes(doc.body.status) ? doc.body : undefined;
        },
        180_000,
      );
      expect(converted).toMatchObject({ status: DocumentStatus.Converted, pages: 200 });
      // The document is marked converted inside the job; the job is marked done just after.
      const job = await until('the job done', async () => {
        const {
          rows: [row],
        } = await db.query('SELECT state, attempts::int AS attempts FROM job WHERE dedupe_key = $1', [
          running.dedupe_key,
        ]);
        return row?.state === 'running' ? undefined : row;
      });
      expect(job).toEqual({ state: 'done', attempts: 2 });

      const folder = `${outputFolder(hash)}/`;
      const stored = s3
        .objectKeys()
        .filter((key) => key.startsWith(folder))
        .map((key) => key.slice(folder.length));
      const pages = Array.from(
        { length: 200 },
        (_, i) => `${i + 1}${converted.enable_gzip ? '.gzip' : ''}${converted.preview_ext}`,
      );
      const positions = Array.from({ length: 200 }, (_, i) => `${i + 1}.pos.gz`);
      expect(stored.sort()).toEqual(
        [...pages, ...positions, 'cover.big.png', 'cover.png', 'cover.webp', 'manifest.json', 'text.txt'].sort(),
      );
      // Nothing half-uploaded either: no temporary object, no multipart upload left open.
      expect(s3.objectKeys().filter((key) => key.startsWith('tmp/'))).toEqual([]);
      expect(s3.pendingUploads()).toEqual([]);

      // Started again, the killed worker removes what its predecessor left.
      const restarted = await startWorker(victim.name, victim.env);
      workers[workers.indexOf(victim)] = restarted;
      expect(scratchOf(victim.env.TMPDIR!)).toEqual([]);
    }, 300_000);
  },
);
