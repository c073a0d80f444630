// The gateway as a real process, as the image and compose run it (node on the production build's
// gateway/server.mjs; `npm start` runs the same main() from source through tsx: tests/ops/npm-start.test.ts
// and database-url.test.ts): config errors exit 1, the embedded backend starts by default and prints a
// generated admin password once, framed with the address (never one the operator chose), SIGTERM lets
// in-flight requests finish, and a 200 MB upload does not grow the process by anything like 200 MB.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { useS3 } from '../helpers/s3';
import { FIXTURE_DIST, gatewayProcessEnv, json, send, startStub, type Stub } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(inject('serverBundles'), 'gateway/server.mjs');
/** What the bundle's start frame names for a lost admin password, run from ROOT. */
const ADMIN_PASSWORD_COMMAND = `node ${relative(ROOT, join(inject('serverBundles'), 'scripts/admin-password.mjs'))}`;
const UPLOAD_MB = 200;

interface Child {
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function spawnServer(env: Record<string, string>): Child {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: gatewayProcessEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, stdout: () => out, stderr: () => err, exited };
}

async function listeningUrl(child: Child, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /running at http:\/\/localhost:(\d+)/.exec(child.stdout());
    if (match) return `http://127.0.0.1:${match[1]}`;
    if (child.process.exitCode !== null) throw new Error(`server exited: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${child.stdout()} ${child.stderr()}`);
}

/** The TCP sockets of a process: its listening ports, and the ports its own connections go to. */
function tcpSocketsOf(pid: number): { listening: Set<number>; connectedTo: number[] } {
  const own = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) own.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const listening = new Set<number>();
  const connectedTo: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const [, local, remote, state, , , , , , inode] = line.trim().split(/\s+/);
      if (!inode || !own.has(inode)) continue;
      const port = (address: string) => parseInt(address.split(':')[1]!, 16);
      if (state === '0A') listening.add(port(local!));
      else connectedTo.push(port(remote!));
    }
  }
  return { listening, connectedTo };
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * Calls of every kind (API calls, the reader's and downloads too, pages with their route data, files and sitemaps)
 * to a gateway with the embedded backend at `url`: answered without one socket to itself, listening on its own port
 * only.
 */
async function expectNoSocketToItself(child: Child, url: string): Promise<void> {
  const pid = child.process.pid!;
  const sockets = () => tcpSocketsOf(pid);
  const seen = { listening: new Set<number>(), connectedTo: new Set<number>() };
  const sample = () => {
    const now = sockets();
    for (const port of now.listening) seen.listening.add(port);
    for (const port of now.connectedTo) seen.connectedTo.add(port);
  };
  const sampler = setInterval(sample, 5);
  try {
    const calls: [string, number][] = [
      ['/api/v1/settings', 200],
      ['/api/v1/category/list?type=0', 200],
      ['/api/v1/document/list?page=1&size=10', 200],
      ['/', 200],
      ['/search?wd=%E6%96%87%E6%A1%A3', 200],
      ['/sitemap.xml', 404],
      ['/uploads/nothing.png', 404],
      ['/download/not-a-link', 400],
      ['/api/v1/document/find?id=1&wd=a', 404],
      ['/api/v1/document/reading?document_id=1', 401],
      ['/api/v1/document/download?id=1', 401],
      ['/view/page/0123456789abcdef0123456789abcdef/1.json', 404],
      ['/readyz', 200],
    ];
    for (const [path, status] of calls) {
      const res = await send(`${url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status, path).toBe(status);
      sample();
    }
    const login = await send(`${url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'wrong' }),
    });
    expect(login.status).toBe(400);
    sample();
    // Refused before the backend reads its body: answered, and the site goes on (it once exited here).
    const boundary = 'refused-upload';
    const upload = await send(`${url}/api/v1/upload/avatar`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nx\r\n--${boundary}--\r\n`,
    });
    expect(upload.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect((await send(`${url}/readyz`)).status).toBe(200);
    sample();
  } finally {
    clearInterval(sampler);
  }
  const port = Number(new URL(url).port);
  expect([...seen.connectedTo].filter((to) => seen.listening.has(to))).toEqual([]);
  expect([...seen.listening]).toEqual([port]);
}

/** An upload of UPLOAD_MB through the gateway at `url`: passed on whole, the process growing by far less than its size. */
async function expectUploadStreamed(child: Child, url: string): Promise<void> {
  const pid = child.process.pid!;
  // warm up the code paths once
  await send(`${url}/api/v1/settings`);
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);

  const total = UPLOAD_MB * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 7);
  const res = await request(`${url}/api/v1/upload/document`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(total) },
    body: Readable.from(
      (function* () {
        for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
      })(),
    ),
  });
  const body = (await res.body.json()) as { received: number };
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));

  expect(res.statusCode).toBe(200);
  expect(body.received).toBe(total);
  const growth = peak - before;
  console.info(
    `${UPLOAD_MB} MB upload through gateway/server.ts: RSS ${(before / 1048576).toFixed(0)} MB → peak ${(peak / 1048576).toFixed(0)} MB (+${(growth / 1048576).toFixed(1)} MB)`,
  );
  // Garbage from the chunks passing through lifts RSS by a constant ~40 MB here (the same
  // for 50 and 200 MB); a buffered upload would add its whole size.
  expect(growth).toBeLessThan((UPLOAD_MB / 2) * 1024 * 1024);
}

/**
 * One readable line per request at info with LOG_FORMAT=text (a terminal's default), from the gateway at `url`:
 * none in JSON, none for the SPA's files.
 */
async function expectTextLog(child: Child, url: string): Promise<void> {
  expect((await send(`${url}/api/v1/settings?tab=1`)).status).toBe(200);
  const asset = readdirSync(join(FIXTURE_DIST, 'assets'))[0]!;
  expect((await send(`${url}/assets/${asset}`)).status).toBe(200);
  expect((await send(`${url}/api/v1/no-such-call`)).status).toBeGreaterThanOrEqual(400);
  const deadline = Date.now() + 5_000;
  while (!child.stdout().includes('/api/v1/no-such-call') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const lines = child.stdout().split('\n');
  expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
  expect(lines.filter((l) => l.includes('/api/v1/settings'))).toEqual([
    expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}GET \/api\/v1\/settings\?tab=1 200 [\d.]+ms$/),
  ]);
  expect(lines.filter((l) => l.includes('/api/v1/no-such-call'))).toHaveLength(1);
  expect(lines.filter((l) => l.includes(asset))).toEqual([]);
}

let stub: Stub;
const children: Child[] = [];

beforeAll(async () => {
  stub = await startStub(
    async (req, res) => {
      if (req.url === '/api/v1/upload/document') {
        let received = 0;
        for await (const chunk of req) {
          received += (chunk as Buffer).length;
          if (received % (1024 * 1024) < (chunk as Buffer).length) await new Promise((r) => setTimeout(r, 10));
        }
        return json(res, 200, { received });
      }
      if (req.url === '/api/v1/slow') await new Promise((r) => setTimeout(r, 800));
      json(res, 200, { ok: true });
    },
    { streamingPaths: ['/api/v1/upload/document'] },
  );
});
afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
  await stub.close();
});

describe('gateway/server.ts', () => {
  it('exits with code 1 and a clear message on a bad value', async () => {
    const child = spawnServer({ PORT: 'abc', BACKEND_URL: 'ftp://x', UPSTREAM_TIMEOUT_MS: '-5' });
    children.push(child);
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toContain('PORT: must be an integer from 0 to 65535 (got "abc")');
    expect(child.stderr()).toContain('BACKEND_URL');
    expect(child.stderr()).toContain('UPSTREAM_TIMEOUT_MS');
  });

  describe('with the embedded backend on S3', () => {
    const server = useS3();

    it('exits with code 1 and one line naming the S3 setting at fault', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'gateway-embedded-'));
      try {
        const child = spawnServer({ DATA_DIR: dataDir, ...server.s3.env, S3_BUCKET: 'no-such-bucket' });
        children.push(child);
        expect(await child.exited).toBe(1);
        expect(child.stderr()).toMatch(
          /(^|\n)Invalid embedded backend configuration: S3_BUCKET: there is no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+\n$/,
        );
        expect(child.stderr()).not.toMatch(/^\s+at /m);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    it('says in its start frame where the database, the files and the scratch folders are, and that the workers run the jobs; does not print a password the operator chose, and logs each request once at info, the backend included', async () => {
      // One start for both (2 cpu-s a start): the password and the log do not depend on where the files are.
      const dataDir = await mkdtemp(join(tmpdir(), 'gateway-embedded-'));
      const chosen = 'operator-chosen-secret-42';
      try {
        const child = spawnServer({
          DATA_DIR: dataDir,
          ...server.s3.env,
          RUN_JOBS: 'false',
          TMPDIR: tmpdir(),
          ADMIN_PASSWORD: chosen,
          LOG_LEVEL: 'info',
        });
        children.push(child);
        const url = await listeningUrl(child);
        const frame = child.stdout().slice(child.stdout().lastIndexOf('  ┌'));
        expect(frame).toContain('│ backend: embedded, jobs left to the workers (RUN_JOBS=false) ');
        expect(frame).toContain(`│   database: SQLite ${join(dataDir, 'moredoc.db')} (with the generated keys) `);
        expect(frame).toContain(`│   files: bucket ${server.s3.env.S3_BUCKET} `);
        expect(frame).toContain(`│   scratch: ${tmpdir()} `);
        expect(child.stdout()).toContain(
          'admin account created: username "admin", with the password set in ADMIN_PASSWORD',
        );
        const res = await send(`${url}/api/v1/settings?tab=1`);
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 200));
        const lines = child
          .stdout()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const aboutIt = lines.filter((l) => JSON.stringify(l).includes('/api/v1/settings'));
        expect(aboutIt).toEqual([
          expect.objectContaining({ level: 30, msg: 'request', url: '/api/v1/settings?tab=1', status: 200 }),
        ]);
        expect(child.stdout() + child.stderr()).not.toContain(chosen);
        child.process.kill('SIGTERM');
        expect(await child.exited).toBe(0);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });

  it('exits with code 1 and one line naming DATA_DIR when it cannot be made', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-embedded-'));
    try {
      const dataDir = join(dir, 'data');
      await writeFile(dataDir, 'not a folder');
      const child = spawnServer({ DATA_DIR: dataDir });
      children.push(child);
      expect(await child.exited).toBe(1);
      expect(child.stderr()).toMatch(
        /^Invalid embedded backend configuration: DATA_DIR \S+ cannot be used \(ENOTDIR: not a directory, [^)]*\): name a folder this process's user may create or write\n$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits with code 1 when the SPA is not built', async () => {
    const child = spawnServer({ BACKEND_URL: stub.url, WEB_DIST: join(tmpdir(), 'no-such-dist') });
    children.push(child);
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toContain(
      `The SPA is not built: ${join(tmpdir(), 'no-such-dist', 'index.html')} is missing. WEB_DIST names the built SPA ` +
        '(default web/dist, which `npm run build:web` makes, and `npm start` builds while WEB_DIST is unset).',
    );
  });

  it('stops cleanly on a SIGTERM that comes while it binds the other addresses of localhost', async () => {
    // Fastify binds 127.0.0.1 first, then looks localhost up for ::1. The preload holds that lookup
    // and answers it right after the signal's handlers have run: the signal lands in that gap every time.
    const dir = await mkdtemp(join(tmpdir(), 'moredoc-held-lookup-'));
    const preload = join(dir, 'hold-lookup.mjs');
    await writeFile(
      preload,
      [
        "import dns from 'node:dns';",
        'const lookup = dns.lookup;',
        'let held = false;',
        'dns.lookup = function (host, options, callback) {',
        '  if (host !== "localhost" || !options?.all || held) return lookup.apply(dns, arguments);',
        '  held = true;',
        '  const addresses = [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }];',
        '  process.once("SIGTERM", () => setImmediate(() => callback(null, addresses)));',
        '  process.stderr.write("lookup held\\n");',
        '};',
      ].join('\n'),
    );
    try {
      const child = spawnServer({
        BACKEND_URL: stub.url,
        HOST: 'localhost',
        NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`,
      });
      children.push(child);
      while (!child.stderr().includes('lookup held')) {
        if (child.process.exitCode !== null) throw new Error(`server exited: ${child.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.process.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(child.stderr()).not.toContain('Error');
      expect(child.stdout()).not.toContain('running at');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it(`streams a ${UPLOAD_MB} MB upload without growing the process by anything near the upload size; on SIGTERM lets requests in flight finish, then exits 0`, async () => {
    // One start for both (the same settings; a start is 1.7 cpu-s): the upload first, then the stop.
    const child = spawnServer({ BACKEND_URL: stub.url, UPSTREAM_TIMEOUT_MS: '60000' });
    children.push(child);
    const url = await listeningUrl(child);
    expect((await send(`${url}/healthz`)).status).toBe(200);
    await expectUploadStreamed(child, url);

    const slow = send(`${url}/api/v1/slow`);
    await new Promise((r) => setTimeout(r, 200));
    expect(stub.requests.some((r) => r.url === '/api/v1/slow')).toBe(true);
    child.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));

    // A new connection is no longer taken: a load balancer sends it to another instance. (A
    // request on a keep-alive connection already open is still answered, with Connection: close.)
    const { hostname, port } = new URL(url);
    const late = await new Promise((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(late).toBe('ECONNREFUSED');

    const res = await slow;
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await child.exited).toBe(0);
  }, 60_000);

  it('lets requests in flight finish when SIGTERM comes twice at once, as `npm run` passes on the one its process group got', async () => {
    const child = spawnServer({ BACKEND_URL: stub.url, LOG_LEVEL: 'info' });
    children.push(child);
    const url = await listeningUrl(child);
    const slow = send(`${url}/api/v1/slow`);
    await new Promise((r) => setTimeout(r, 200));
    expect(stub.requests.some((r) => r.url === '/api/v1/slow')).toBe(true);
    // systemd's stop (or a terminal's Ctrl-C) signals npm and node alike, and npm forwards its own
    // to node a moment later: once node has taken the first (two sent at once would merge into one).
    child.process.kill('SIGTERM');
    while (!child.stdout().includes('shutting down')) await new Promise((r) => setTimeout(r, 10));
    child.process.kill('SIGTERM');

    const res = await slow;
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await child.exited).toBe(0);
    expect(child.stderr()).not.toContain('second SIGTERM');
  });

  describe('without BACKEND_URL', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'gateway-embedded-'));
    });
    afterAll(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });

    it("starts the embedded backend, prints the admin credentials on first start only, and stops it on shutdown; started again, answers API calls (the reader's and downloads too), pages with their route data, files and sitemaps without one socket to itself, listening on its own port only", async () => {
      const first = spawnServer({ DATA_DIR: dataDir, CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false' });
      children.push(first);
      const url = await listeningUrl(first);
      expect(first.stdout()).toMatch(/admin account created: username "admin", password "\S{6,}"/);
      // The address and the password in a frame at the end of the start, every line as wide.
      const frame = first.stdout().slice(first.stdout().lastIndexOf('  ┌')).split('\n');
      const bottom = frame.findIndex((line) => line.startsWith('  └'));
      expect(bottom).toBeGreaterThan(3);
      const box = frame.slice(0, bottom + 1);
      expect(new Set(box.map((line) => line.length)).size).toBe(1);
      expect(box.slice(1, -1).every((line) => line.startsWith('  │ ') && line.endsWith(' │'))).toBe(true);
      const inside = box.join('\n');
      for (const text of [
        'moredoc-site is running at http://localhost:',
        'admin account created: username "admin", password "',
        // From the bundle (the image has no tsx): the bundled command beside it, also as Docker runs it.
        `lost it? ${ADMIN_PASSWORD_COMMAND} gives the admin a new one;`,
        `in the Docker image: docker compose exec site ${ADMIN_PASSWORD_COMMAND})`,
        'press Ctrl-C to stop the site',
      ]) {
        expect(inside).toContain(text);
      }
      expect(inside).toContain(`│   database: SQLite ${join(dataDir, 'moredoc.db')} (with the generated keys) `);
      expect(inside).toContain(`│   files: ${dataDir} `);
      expect(existsSync(dataDir)).toBe(true);
      const login = await send(`${url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: /password "(\S+)"/.exec(first.stdout())![1] }),
      });
      expect(login.status, login.text).toBe(200);
      expect(login.setCookies[0]).toMatch(/^token=/);
      first.process.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      // Started again (one start for both checks: the same settings, 2 cpu-s a start).
      const second = spawnServer({ DATA_DIR: dataDir });
      children.push(second);
      const secondUrl = await listeningUrl(second);
      expect(second.stdout()).not.toContain('admin account created');
      await expectNoSocketToItself(second, secondUrl);
      second.process.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }, 60_000);

    it("exits with code 1 naming HOST and PORT when its port is taken, and still gives the admin password it generated; started again, writes one readable line per request with LOG_FORMAT=text (a terminal's default), none for the SPA's files at info", async () => {
      const freshDir = await mkdtemp(join(tmpdir(), 'gateway-embedded-'));
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as AddressInfo;
      try {
        const refused = spawnServer({
          DATA_DIR: freshDir,
          HOST: '127.0.0.1',
          PORT: String(port),
          CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
        });
        children.push(refused);
        expect(await refused.exited).toBe(1);
        // The embedded backend made the account before the port was refused; no later start prints its password.
        const password = /username "admin", password "(\S{6,})"/.exec(refused.stderr())?.[1];
        expect(refused.stderr()).toBe(
          `The gateway could not start on 127.0.0.1:${port} (HOST, PORT): listen EADDRINUSE: address already in use 127.0.0.1:${port}\n` +
            `admin account created: username "admin", password "${password}"\n` +
            '(the password is shown only this once: note it, then change it after logging in)\n',
        );
        // The log's format on this start too (2 cpu-s a start): it does not depend on the earlier one.
        const second = spawnServer({ DATA_DIR: freshDir, LOG_LEVEL: 'info', LOG_FORMAT: 'text' });
        children.push(second);
        const url = await listeningUrl(second);
        expect(second.stdout()).not.toContain('admin account created');
        const login = await send(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        });
        expect(login.status, login.text).toBe(200);
        await expectTextLog(second, url);
        second.process.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
        await rm(freshDir, { recursive: true, force: true });
      }
    }, 60_000);
  });
});
