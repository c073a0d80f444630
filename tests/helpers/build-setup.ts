// Vitest global setup of the `slow` project: the production build (tests/helpers/production-build.ts,
// made once per run, kept while the sources stay the same; the e2e project's setup asks for the same
// one). Files that start the server programs as the image and compose run them, node on their bundles,
// find the bundles' folder as inject('serverBundles'); those that check the commands run from source
// (`npm start`, `npm run backend`, `npm run worker`) start them through tsx.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { productionBuild } from './production-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** dist/server of the production build: gateway/server.mjs, backend/server.mjs, backend/worker.mjs… */
    serverBundles: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const build = await productionBuild((files) =>
    process.stdout.write(`slow: building the site (npm run build on ${files} files of the build context)…\n`),
  );
  project.provide('serverBundles', join(build, 'dist/server'));
}
