// The first screen of a visitor's public page, rendered by the SPA's own components
// (web/src/entry-server.tsx, built into web/dist/.ssr/ by `npm run build:web`) so that people
// see the page's content once the page and its stylesheets are here, before the app's code.
// The SPA replaces it with the same screen when it starts (web/src/main.tsx).
//
// With it come the screen's stylesheets (a screen whose code is a chunk of its own, like the
// reader, has its styles there: without them the page would be laid out otherwise until the
// app starts) and its code, preloaded, from the build's manifest. Without the build, or when a
// page cannot be rendered in time, pages are served as before: the SPA renders them itself.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Piscina from 'piscina';
import type { FastifyBaseLogger } from 'fastify';
import type { FirstScreen } from '../shared/first-screen';
import type { StartData } from '../shared/types/start-data';
import { threadModule } from '../backend/platform/thread-modules';
import { escapeHtml } from './page-html';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const FIRST_SCREEN_MODULE = '.ssr/entry-server.js';
const MANIFEST = '.vite/manifest.json';
/** The page is served without its first screen when rendering takes longer (the route data is in hand already). */
export const FIRST_SCREEN_TIME_LIMIT_MS = 1_000;
/**
 * A render still running this long after its page went without it hangs: it is aborted, which
 * ends the thread (piscina starts another, which loads the app's module again).
 */
export const FIRST_SCREEN_HANG_MS = 10_000;

export interface RenderedScreen {
  /** what goes into #root */
  html: string;
  /** the links for the head: the screen's stylesheets and code beyond the first screen's */
  head: string;
}

export interface FirstScreenRenderer {
  render(url: string, start: StartData): Promise<RenderedScreen | undefined>;
  /** The text of the build's stylesheet at `href` (`/assets/….css`), for a page that carries it inline. */
  stylesheet(href: string): string | undefined;
  close(): Promise<void>;
}

/** The build's stylesheets by path (`/assets/name.css`), read once: a few hundred KiB. */
async function readStylesheets(webDist: string): Promise<Map<string, string>> {
  const dir = join(webDist, 'assets');
  const names = existsSync(dir) ? (await readdir(dir)).filter((name) => name.endsWith('.css')) : [];
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
  return new Map(names.map((name, i) => [`/assets/${name}`, texts[i]!]));
}

/** The chunks `key` imports, itself included, except those of `loaded`. */
function chunksOf(
  manifest: Manifest,
  key: string,
  loaded: ReadonlySet<string>,
  found = new Set<string>(),
): Set<string> {
  if (found.has(key) || loaded.has(key) || !manifest[key]) return found;
  found.add(key);
  for (const next of manifest[key].imports ?? []) chunksOf(manifest, next, loaded, found);
  return found;
}

/** The head links of each screen file, worked out once. */
function screenLinks(manifest: Manifest): (files: readonly string[]) => string {
  const loaded = chunksOf(manifest, 'index.html', new Set());
  const known = new Map<string, string>();
  return (files) =>
    files
      .map((file) => {
        let links = known.get(file);
        if (links === undefined) {
          const chunks = [...chunksOf(manifest, file, loaded)].map((key) => manifest[key]!);
          links = [
            ...chunks
              .flatMap((chunk) => chunk.css ?? [])
              .map((css) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(css)}">`),
            ...chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(chunk.file)}">`),
          ].join('\n    ');
          known.set(file, links);
        }
        return links;
      })
      .filter(Boolean)
      .join('\n    ');
}

/** Renders one thread makes side by side (they are short and mostly synchronous, a few wait for their loaders). */
export const RENDERS_PER_THREAD = 4;

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/**
 * piscina's own balancer gives a task with an abort signal (each render has one: a hung render
 * is aborted) only to an idle thread, and no other task to a thread running one: renders ran one
 * at a time, and a late one held every render behind it up to its end. This one gives a task to
 * the least busy thread below `perThread` tasks, abortable or not. An abort ends its thread, and
 * the renders beside it fail with it: their pages are served without their first screen (a render
 * that hangs in its own code would have held them anyway).
 */
function sideBySide(perThread: number): LoadBalancer {
  return (_task, workers) => {
    let candidate: (typeof workers)[number] | null = null;
    let least = perThread;
    for (const worker of workers) {
      // piscina counts a thread with one abortable task as full (Infinity).
      const usage = worker.isRunningAbortableTask ? 1 : worker.currentUsage;
      if (usage < least) {
        candidate = worker;
        least = usage;
      }
    }
    return candidate;
  };
}

/**
 * The renderer of web/dist, or undefined (with a word in the log) when the build has none or it
 * cannot be read. `timeLimitMs`: how long a render may take (tests that are not about the
 * limit raise it, so that a busy machine does not change what they see); `hangMs`: how long
 * after that a render still running is aborted (tests of a hung render shorten it).
 */
export async function loadFirstScreen(
  webDist: string,
  log: FastifyBaseLogger,
  timeLimitMs = FIRST_SCREEN_TIME_LIMIT_MS,
  hangMs = FIRST_SCREEN_HANG_MS,
): Promise<FirstScreenRenderer | undefined> {
  const modulePath = join(webDist, FIRST_SCREEN_MODULE);
  if (!existsSync(modulePath)) {
    // A build without it (an older one, or a test's): pages are what the SPA renders alone.
    log.info(
      { webDist },
      'pages are served without their first screen: the build has no .ssr/entry-server.js (`npm run build:web` makes it)',
    );
    return undefined;
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(webDist, MANIFEST), 'utf8')) as Manifest;
  } catch (error) {
    log.warn(
      { webDist, err: error },
      "pages are served without their first screen: the build's manifest cannot be read",
    );
    return undefined;
  }
  const linksOf = screenLinks(manifest);
  const stylesheets = await readStylesheets(webDist);
  const pool = new Piscina<{ url: string; start: StartData }, FirstScreen | undefined>({
    filename: (await threadModule(new URL('./first-screen-worker.ts', import.meta.url))).href,
    workerData: { modulePath },
    // One thread, started now (the module takes a moment to load), kept; its renders are short
    // and mostly synchronous, a few may wait for their loaders side by side.
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: RENDERS_PER_THREAD,
    loadBalancer: sideBySide(RENDERS_PER_THREAD),
    execArgv: [],
    // Between tasks the thread waits for messages in its event loop: asleep in Atomics.wait, as
    // piscina has it by default, it never ran what a render left to run after it (React's work,
    // a stream's callbacks), and every render's request and HTML stayed queued on the thread.
    atomics: 'disabled',
  });
  // A thread that fails outside a task (its module does not load): its tasks fail, and are logged.
  pool.on('error', (error: Error) => log.warn({ err: error }, "the first screen's thread failed"));
  return {
    async render(url, start) {
      // Past the time limit the page goes without its first screen, and the render is left to
      // end: aborting it ends the thread, and under load the new thread's start (the app's
      // module loaded again) made the renders queued behind it late too, each ending the next
      // thread (docs/performance.md §2). Only a render that hangs is aborted.
      const task = pool.run({ url, start }, { signal: AbortSignal.timeout(timeLimitMs + hangMs) });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeLimitMs);
      });
      try {
        const screen = await Promise.race([task, late]);
        if (screen === 'late') {
          task.catch(() => undefined);
          log.warn({ url, err: `late: over ${timeLimitMs} ms` }, 'the first screen of a page could not be rendered');
          return undefined;
        }
        return screen && { html: screen.html, head: linksOf(screen.files) };
      } catch (error) {
        // One page's fault: it is served without its first screen, the SPA renders it (and shows the error).
        log.warn({ url, err: error }, 'the first screen of a page could not be rendered');
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
    stylesheet: (href) => stylesheets.get(href),
    close: () => pool.destroy(),
  };
}
