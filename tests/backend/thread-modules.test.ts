import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadModule } from '../../backend/platform/thread-modules';

// Run from source, a worker thread's TypeScript module is bundled on first use and cached by a
// hash of its sources: an edit to any of them is what the next thread loads.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'thread-modules-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a thread loading `file` posts. */
function answerOf(file: URL): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { execArgv: [] });
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('a thread module run from source', () => {
  it('is loaded by a thread as its bundle, made again when a module it imports changes', async () => {
    const cache = join(dir, 'cache');
    const entry = pathToFileURL(join(dir, 'answer-thread.ts'));
    await writeFile(
      join(dir, 'answer-thread.ts'),
      "import { parentPort } from 'node:worker_threads';\nimport { answer } from './answer';\nparentPort!.postMessage(answer satisfies string);\n",
    );
    await writeFile(join(dir, 'answer.ts'), "export const answer: string = 'first';\n");
    const first = await threadModule(entry, cache);
    expect(first.href).toMatch(/\/answer-thread\.mjs$/);
    expect(await answerOf(first)).toBe('first');
    // Nothing changed: the same bundle.
    expect((await threadModule(entry, cache)).href).toBe(first.href);

    await writeFile(join(dir, 'answer.ts'), "export const answer: string = 'second';\n");
    const second = await threadModule(entry, cache);
    expect(second.href).not.toBe(first.href);
    expect(await answerOf(second)).toBe('second');
  });
});

describe('thread modules bundled by several callers at once', () => {
  it('give each caller the same bundle, made by whichever finished first', async () => {
    const cache = join(dir, 'cache-race');
    await writeFile(
      join(dir, 'race-thread.ts'),
      "import { parentPort } from 'node:worker_threads';\nparentPort!.postMessage('raced' satisfies string);\n",
    );
    const entry = pathToFileURL(join(dir, 'race-thread.ts'));
    const files = await Promise.all([1, 2, 3].map(() => threadModule(entry, cache)));
    expect(new Set(files.map((file) => file.href)).size).toBe(1);
    expect(await answerOf(files[0]!)).toBe('raced');
  });
});
