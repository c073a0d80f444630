// The first screen's renderer (web/dist/.ssr/entry-server.js, `workerData.modulePath`) on a
// thread of its own, for gateway/first-screen.ts: React's rendering never holds up the
// gateway's event loop, and the module loads in plain Node (no loader of the parent, such as
// tsx, transforms its 6 MB). The thread loads this file's esbuild bundle, first-screen-worker.mjs
// (backend/platform/thread-modules.ts).
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import type { FirstScreen } from '../shared/first-screen';
import type { StartData } from '../shared/types/start-data';

const { renderFirstScreen } = (await import(pathToFileURL((workerData as { modulePath: string }).modulePath).href)) as {
  renderFirstScreen: (url: string, start: StartData) => Promise<FirstScreen | undefined>;
};

/** A task: `{ url, start }`; the answer: entry-server.tsx's `{ html, files }` or undefined. */
export default function render({ url, start }: { url: string; start: StartData }): Promise<FirstScreen | undefined> {
  return renderFirstScreen(url, start);
}
