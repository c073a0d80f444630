// `npm start` as an operator stops it: a signal to npm alone (a service manager, `kill` of the
// npm process) stops the site too, its requests in flight finishing, instead of leaving the
// server running without its npm.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gatewayProcessEnv } from '../gateway/helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('stops the server when npm is sent SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'npm-start-'));
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: gatewayProcessEnv({ DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
    try {
      const deadline = Date.now() + 60_000;
      let port: string | undefined;
      while (!(port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1]) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(port, out).toBeDefined();
      const health = `http://127.0.0.1:${port}/healthz`;
      expect(await answers(health)).toBe(true);

      npm.kill('SIGTERM');
      await exited;
      const stopBy = Date.now() + 15_000;
      while ((await answers(health)) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 200));
      expect(await answers(health), 'the server still answers after npm stopped').toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
