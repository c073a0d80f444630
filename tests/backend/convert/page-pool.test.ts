import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDER_SETTINGS } from '../../../backend/platform/convert/converter';
import { ConversionError } from '../../../backend/platform/convert/errors';
import { PagePool, type WorkerSource } from '../../../backend/platform/convert/page-pool';
import { threadModule } from '../../../backend/platform/thread-modules';
import { fixture, textPdf } from '../../helpers/documents';
import { isImageThread, threadStates } from '../../helpers/threads';

// A worker thread that dies under its task fails that document only; the pool starts a new
// thread for the next one. The worker here is the real one, made to die for crash.pdf.

let dir: string;
let pool: PagePool;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'convert-pool-'));
  pool = new PagePool({
    threads: 1,
    idleTimeoutMs: 5_000,
    workerUrl: await threadModule(new URL('./workers/crashing-worker.ts', import.meta.url)),
  });
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

const source = (path: string, key: string): WorkerSource => ({ path, name: 'document.pdf', reflow: null, key });
const never = new AbortController().signal;

describe('PagePool', () => {
  it('turns a thread that dies into ConversionError(worker-crashed), then works on', async () => {
    const crash = join(dir, 'crash.pdf');
    await copyFile(fixture('chinese.pdf'), crash);
    const error = await pool.inspect(source(crash, 'a'), never).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConversionError);
    expect(error).toMatchObject({ reason: 'worker-crashed', message: '转换进程意外退出，文档转换失败' });

    const good = source(fixture('chinese.pdf'), 'b');
    expect(await pool.inspect(good, never)).toMatchObject({
      pages: 3,
      width: expect.closeTo(595.3, 1),
      height: expect.closeTo(841.9, 1),
    });
    const out = join(dir, 'out');
    await mkdir(out);
    const done: number[] = [];
    const rendered = await pool.renderAll(good, 3, out, RENDER_SETTINGS, never, (n) => done.push(n));
    expect(rendered.pageFiles.map((page) => page.file)).toEqual(['1.gzip.svg', '2.gzip.svg', '3.gzip.svg']);
    expect(rendered.texts).toHaveLength(3);
    expect(done).toEqual([1, 2, 3]);
  });
});

describe("a slice's wait for its covers' encoding", () => {
  it("is no page's step: covers encoded past the step budget (6 s against 3 s) do not fail the document", async () => {
    // libvips' work is bounded by the image's size and a thread ended inside it can abort the process: the covers'
    // encoding has no budget, like the images jobs' (StepBudget). It was under the budget of the slice's last step.
    const slowCovers = new PagePool({
      threads: 1,
      idleTimeoutMs: 1_000,
      workerUrl: await threadModule(new URL('./workers/slow-cover-worker.ts', import.meta.url)),
    });
    const out = await mkdtemp(join(dir, 'slow-cover-'));
    try {
      const pdf = join(out, 'one-page.pdf');
      await writeFile(pdf, textPdf(1));
      const rendered = await slowCovers.renderAll(
        source(pdf, 'slow-cover'),
        1,
        out,
        RENDER_SETTINGS,
        never,
        () => {},
        3_000,
      );
      expect(rendered.pageFiles.map((page) => page.file)).toEqual(['1.gzip.svg']);
      const { files } = RENDER_SETTINGS.cover;
      expect((await readdir(out)).filter((name) => name.startsWith('cover.')).sort()).toEqual(
        [files.bigPng, files.png, files.webp].sort(),
      );
    } finally {
      await slowCovers.close();
    }
  }, 30_000);
});

describe('a pool whose worker module cannot load', () => {
  it('fails the task with ConversionError(worker-crashed) instead of leaving it pending', async () => {
    const broken = new PagePool({
      threads: 1,
      idleTimeoutMs: 1_000,
      workerUrl: new URL('./workers/broken-worker.mjs', import.meta.url),
    });
    try {
      const error = await broken.inspect(source(fixture('chinese.pdf'), 'c'), never).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ reason: 'worker-crashed', detail: 'this conversion worker cannot load' });
    } finally {
      await broken.close();
    }
  });

  it('is refused at start when the worker file is missing', () => {
    expect(
      () =>
        new PagePool({
          threads: 1,
          idleTimeoutMs: 1_000,
          workerUrl: new URL('./workers/missing-worker.mjs', import.meta.url),
        }),
    ).toThrow(/conversion worker is missing/);
  });
});

describe.runIf(process.platform === 'linux')('a pool with a nice increment', () => {
  it('renders on threads that yield the cores: each at the process nice value + the increment, and only they with the image threads they use', async () => {
    const base = getPriority();
    const increment = Math.min(7, 19 - base);
    const lowered = async () =>
      (await threadStates()).filter((thread) => !isImageThread(thread) && thread.nice === base + increment).length;
    expect(increment).toBeGreaterThan(0);
    expect(await lowered()).toBe(0);
    const nicePool = new PagePool({ threads: 2, idleTimeoutMs: 5_000, niceIncrement: increment });
    const out = await mkdtemp(join(dir, 'nice-'));
    try {
      const rendered = await nicePool.renderAll(
        source(fixture('chinese.pdf'), 'nice'),
        3,
        out,
        RENDER_SETTINGS,
        never,
        () => {},
      );
      expect(rendered.pageFiles).toHaveLength(3);
      // The threads stay until their idle timeout: one or two of them, every other thread as it was.
      expect(await lowered()).toBeGreaterThanOrEqual(1);
      expect(await lowered()).toBeLessThanOrEqual(2);
      // The covers were encoded by libvips, on threads of its own: they run as low as the MuPDF threads.
      const imageThreads = (await threadStates()).filter(isImageThread);
      expect(imageThreads.length).toBeGreaterThan(0);
      expect(imageThreads.map((thread) => thread.nice)).toEqual(imageThreads.map(() => base + increment));
    } finally {
      await nicePool.close();
    }
    expect(await lowered()).toBe(0);
  });
});
