// `npm run start:prod` and `npm run start:worker`: `node scripts/start-build.mjs <bundle>` runs a
// server bundle of the build (dist/server/…), in this process (node's options on the command line
// apply to it, and npm's SIGTERM reaches it: the npm script `exec`s node). Where nothing was built
// it says so in one line, and what to run, instead of node's stack trace. Plain JavaScript, in
// a file of its own: it runs where the build runs, without tsx, and npm echoes the script's line
// before it runs, which stays one short command.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bundles it starts, and the command that runs each from the sources. */
const FROM_SOURCE = {
  'dist/server/gateway/server.mjs': 'npm start',
  'dist/server/backend/worker.mjs': 'npm run worker',
};

const bundle = process.argv[2] ?? '';
const fromSource = FROM_SOURCE[bundle];
if (!fromSource) {
  process.stderr.write(`start-build: no such bundle "${bundle}" (one of ${Object.keys(FROM_SOURCE).join(', ')})\n`);
  process.exit(2);
}
if (!existsSync(bundle)) {
  process.stderr.write(
    `No build here (${bundle} is missing): run npm run build first, or ${fromSource} to run from the sources\n`,
  );
  process.exit(1);
}
// The bundle runs as node's main module would (the gateway's starts when it is process.argv[1]).
process.argv.splice(1, 2, resolve(bundle));
await import(pathToFileURL(resolve(bundle)).href);
