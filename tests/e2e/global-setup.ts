// Browser tests run against the production build of this work tree (the one the Docker test
// checks, made once per run and kept while the sources stay the same): the files see its
// web/dist as inject('webDist').
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { productionBuild } from '../helpers/production-build';

declare module 'vitest' {
  export interface ProvidedContext {
    webDist: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const build = await productionBuild((files) => process.stdout.write(`e2e: building the site (npm run build on ${files} files of the build context)…\n`));
  project.provide('webDist', join(build, 'web/dist'));
}
