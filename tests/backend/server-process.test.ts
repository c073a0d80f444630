import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, inject, it } from 'vitest';
import { verifyPassword } from '../../backend/platform/auth/password';
import { runUntil } from '../helpers/processes';
import { useS3 } from '../helpers/s3';

// The backend as a real process, with only environment: node on the production build's
// backend/server.mjs, as the image runs it. `npm run backend` runs the same main() from source
// through tsx (tests/ops/npm-start.test.ts and database-url.test.ts start it that way), a start
// that costs 1.5 cpu-s more than the bundle's for what this file checks of the program itself.
const SERVER = path.join(inject('serverBundles'), 'backend/server.mjs');

const run = (env: Record<string, string>, untilOutput: RegExp | null) =>
  runUntil(process.execPath, [SERVER], { env, until: untilOutput, killAfterMs: 20_000 });

describe('backend/server.mjs', () => {
  it('starts on an empty DATA_DIR, prints the URL and the generated admin password, and stops on SIGINT', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const { code, stdout } = await run(
        { DATA_DIR: dataDir, BACKEND_PORT: '0', TMPDIR: os.tmpdir() },
        /password "[^"]+"/,
      );
      expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(/);
      expect(stdout).toContain(
        `(database SQLite ${path.join(dataDir, 'moredoc.db')}, files in ${dataDir}, scratch in ${os.tmpdir()})`,
      );
      expect(stdout).toMatch(/username "admin", password "[\w-]{12,}"/);
      expect(code).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'moredoc.db'))).toBe(true);
      const again = await run({ DATA_DIR: dataDir, BACKEND_PORT: '0' }, /listening on/);
      expect(again.stdout).not.toContain('password');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits with status 1 and a clear message on a bad setting', async () => {
    const { code, stderr } = await run({ BACKEND_PORT: 'eighty' }, null);
    expect(code).toBe(1);
    expect(stderr).toContain('Configuration error: BACKEND_PORT must be an integer between 0 and 65535, got "eighty"');
  });

  it('exits with status 1 and one line when its port is taken, and still gives the admin password it generated', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const { code, stderr } = await run({ DATA_DIR: dataDir, BACKEND_PORT: String(port) }, null);
      expect(code).toBe(1);
      // The account was made before the port was refused; no later start prints its password.
      const password = /username "admin", password "([\w-]{12,})"/.exec(stderr)?.[1];
      expect(stderr).toBe(
        `The backend could not start on 127.0.0.1:${port} (BACKEND_HOST, BACKEND_PORT): listen EADDRINUSE: address already in use 127.0.0.1:${port}\n` +
          `Created the administrator account: username "admin", password "${password}" (shown only once, change it after logging in)\n`,
      );
      const db = new Database(path.join(dataDir, 'moredoc.db'), { readonly: true });
      const admin = db.prepare('SELECT password FROM user WHERE username = ?').get('admin') as { password: string };
      db.close();
      expect(await verifyPassword(password!, admin.password)).toBe(true);
      const again = await run({ DATA_DIR: dataDir, BACKEND_PORT: '0' }, /listening on/);
      expect(again.stdout).not.toContain('password');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits with status 1 and one line naming DATA_DIR when it is a file, not a folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const dataDir = path.join(dir, 'data');
      fs.writeFileSync(dataDir, 'not a folder');
      const { code, stderr } = await run({ DATA_DIR: dataDir, BACKEND_PORT: '0' }, null);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(
          `^Configuration error: DATA_DIR ${dataDir} cannot be used \\(ENOTDIR: not a directory, [^)]*\\): name a folder this process's user may create or write\n$`,
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['LIBREOFFICE_PATH', 'soffice, soffice.bin or the LibreOffice program folder'],
    ['CALIBRE_PATH', 'ebook-convert or its folder'],
  ])('exits with status 1 and one line when %s points to nothing', async (variable, expected) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const missing = path.join(dataDir, 'not-installed', 'program');
      const { code, stderr } = await run({ DATA_DIR: dataDir, BACKEND_PORT: '0', [variable]: missing }, null);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `Configuration error: ${variable} points to nothing: "${missing}" does not exist (name ${expected}, or off to do without it)\n`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('backend/server.mjs with S3_BUCKET', () => {
  const server = useS3();

  it('starts when the bucket answers, keeping no file folders under DATA_DIR', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const { code, stdout } = await run(
        { DATA_DIR: dataDir, BACKEND_PORT: '0', ...server.s3.env },
        /password "[^"]+"/,
      );
      expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(code).toBe(0);
      expect(
        fs
          .readdirSync(dataDir)
          .filter((name) => !name.startsWith('moredoc.db'))
          .sort(),
      ).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'no such bucket',
      () => ({ S3_BUCKET: 'no-such-bucket' }),
      /^Configuration error: S3_BUCKET: there is no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+\n$/,
    ],
    [
      'unknown keys',
      () => ({ S3_ACCESS_KEY_ID: 'WRONG', S3_SECRET_ACCESS_KEY: 'WRONG' }),
      /^Configuration error: S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: http:\/\/127\.0\.0\.1:\d+ refused access to the bucket "moredoc-test" \(HTTP 403[^\n]*\n$/,
    ],
    [
      // Neither the S3_* keys nor any of the SDK's own (no AWS_* variables, no HOME, no instance role).
      'no keys',
      () => ({ S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '', AWS_EC2_METADATA_DISABLED: 'true' }),
      /^Configuration error: S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: no keys for the bucket "moredoc-test" at http:\/\/127\.0\.0\.1:\d+: set both, or the AWS_\* variables, or give the machine an instance role \(Could not load credentials from any providers\)\n$/,
    ],
  ])('exits with status 1 and one line naming the setting on %s', async (_case, change, message) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const { code, stderr } = await run({ DATA_DIR: dataDir, BACKEND_PORT: '0', ...server.s3.env, ...change() }, null);
      expect(code).toBe(1);
      // Our one line and nothing else (the SDK's Node 20 warning is switched off), no stack trace.
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('waits for an S3 endpoint that does not answer, one line a try, instead of exiting', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-server-'));
    try {
      const waiting =
        /Waiting for the S3 bucket: S3_ENDPOINT: http:\/\/127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED[^\n]*; trying again in \d+ s\n/g;
      const { code, stderr } = await runUntil(process.execPath, [SERVER], {
        env: { DATA_DIR: dataDir, BACKEND_PORT: '0', ...server.s3.env, S3_ENDPOINT: 'http://127.0.0.1:9' },
        until: null,
        // Two tries: it did not exit after the first.
        untilError: /trying again in \d+ s\n[^]*trying again in \d+ s\n/,
        killAfterMs: 60_000,
      });
      // Ended by the test's SIGINT (no handler of its own before it listens), not by an exit of its own.
      expect(code).toBeNull();
      expect(stderr.match(waiting)?.length).toBeGreaterThanOrEqual(2);
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
