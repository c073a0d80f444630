// The first screen's renderer (web/dist/.ssr/entry-server.js, `workerData.modulePath`) on a
// thread of its own, for gateway/first-screen.ts: React's rendering never holds up the
// gateway's event loop, and the module loads in plain Node (no loader of the parent, such as
// tsx, transforms its 6 MB). Plain JavaScript: `npm run build:server` copies it beside the bundle.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';

const { renderFirstScreen } = await import(pathToFileURL(workerData.modulePath).href);

/** A task: `{ url, start }`; the answer: entry-server.tsx's `{ html, files }` or undefined. */
export default function render({ url, start }) {
  return renderFirstScreen(url, start);
}
