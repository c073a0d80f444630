// A full disk under DATA_DIR (SQLite's database, the uploaded files): writes answer a clear 503 and
// lose nothing acknowledged, the log says why in one line, and writes work again once room is made.
// The disk is a tmpfs of a few MiB, mounted for the test: that needs root (CI runs as root); elsewhere
// the file is skipped, saying so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startBackend, TEST_ENGINE, type StartedBackend } from '../helpers/backend';

const STORAGE_FULL = '服务器存储空间已满，暂时无法保存，请联系网站管理员';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-full-disk-'));
function mountSmallDisk(): string | null {
  if (TEST_ENGINE !== 'sqlite') return 'the database is on PostgreSQL, not on the small disk';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]}): root is needed`;
  }
}
const unavailable = mountSmallDisk();
if (unavailable) console.warn(`storage-full.test.ts skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('a full disk', () => {
  let backend: StartedBackend;
  let token: string;
  const filler = path.join(mountPoint, 'filler');
  const lines: string[] = [];

  beforeAll(async () => {
    backend = await startBackend({
      dataDir: path.join(mountPoint, 'data'),
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    token = await login(backend.url, 'admin', backend.adminPassword);
  });
  afterAll(async () => {
    await backend?.close();
    execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  /** Takes every free byte of the disk. */
  function fillDisk(): void {
    const chunk = Buffer.alloc(256 * 1024);
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOSPC') throw error;
    } finally {
      fs.closeSync(fd);
    }
    // The last partial block too.
    try {
      for (;;) fs.appendFileSync(filler, Buffer.alloc(512));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOSPC') throw error;
    }
  }

  const createCategory = (title: string) =>
    api(backend.url, 'POST', '/api/v1/category', { token, body: { title, enable: true, type: 0 } });
  const upload = async (name: string) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('满盘时上传的文本文档。\n'.repeat(4000))]), name);
    const res = await fetch(`${backend.url}/api/v1/upload/document`, {
      method: 'POST',
      body: form,
      headers: { authorization: `bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const titles = async () =>
    ((await api(backend.url, 'GET', '/api/v1/category/list', { token, query: { type: 0 } })).body.category ?? []).map(
      (c: { title: string }) => c.title,
    );

  it('answers 503 saying the storage is full, for the database and the files alike, and writes again once room is made', async () => {
    expect((await createCategory('写满之前')).status).toBe(200);
    fillDisk();

    const refused = await createCategory('写满之时');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 14, message: STORAGE_FULL });
    const uploaded = await upload('满盘.txt');
    expect(uploaded).toEqual({ status: 503, body: { code: 503, message: STORAGE_FULL, error: STORAGE_FULL } });
    // Reads go on; what was refused is not there, what came before is.
    expect(await titles()).toEqual(['写满之前']);
    // Why, in one line each, with the real cause: not SQLite's "cannot rollback" after it ended the
    // transaction itself, nor a stack.
    const said = lines.map((line) => JSON.parse(line) as { msg: string; reason?: string; err?: unknown });
    const full = said.filter((line) => line.msg === 'storage full');
    expect(full.map((line) => line.reason)).toEqual(['database or disk is full', expect.stringContaining('ENOSPC')]);
    expect(full.filter((line) => line.err !== undefined)).toEqual([]);
    expect(lines.filter((line) => line.includes('cannot rollback'))).toEqual([]);

    fs.rmSync(filler);
    expect((await createCategory('腾出空间之后')).status).toBe(200);
    expect((await upload('腾出空间之后.txt')).status).toBe(200);
    expect(await titles()).toEqual(expect.arrayContaining(['写满之前', '腾出空间之后']));
  });
});
