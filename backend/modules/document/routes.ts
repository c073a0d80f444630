import type { FastifyInstance } from 'fastify';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { MAX_CONVERSION_MS, convertDocumentKind, resumeConversions, runConversion } from './conversion';
import { purgeFiles, purgeFilesKind } from './file-purge';
import { rebuildSearchIndex, reindexDocumentsKind, scheduleReindexIfNeeded } from './indexing';
import { readManifest } from './manifest';
import { registerPageRoutes } from './page-routes';
import { bringImagesToReadingResolution, enqueuePageImages, pageImagesKind } from './page-images';
import { scheduleHotDocuments } from './hot';
import { libraryRpcs } from './library-rpcs';
import {
  fillInPositions,
  positionsKind,
  positionsSweepKind,
  queueMissingPositions,
  scheduleMissingPositions,
} from './positions';
import { readRpcs } from './read-rpcs';
import { readingRpcs } from './reading-rpcs';
import { recycleRpcs } from './recycle-rpcs';
import { writeRpcs } from './write-rpcs';

// DocumentAPI and RecycleAPI of the embedded backend, the `/view/page` and `/view/cover`
// routes, and the document jobs: conversion (one per file), page images at reading resolution,
// the characters' positions of files converted before they were kept, file purges, index rebuilds,
// the 热门文档 ranking.

const CONVERT_ATTEMPTS = 3;
/** Room after the engine's own limit for storing the outputs of a big document. */
const STORE_MARGIN_MS = 10 * 60_000;

function registerDocumentJobs(ctx: BackendContext): void {
  const settings = ctx.conversion;
  ctx.jobs.register(
    convertDocumentKind,
    async ({ hash }, job) => {
      // The file's images next, also when this run found nothing to convert: an earlier run may
      // have recorded the pages and ended with its process before it queued them.
      const manifest =
        (await runConversion(ctx, settings, hash, job, CONVERT_ATTEMPTS)) ?? (await readManifest(ctx, hash));
      if (manifest) await enqueuePageImages(ctx, hash, manifest);
    },
    {
      concurrency: settings.jobs,
      timeoutMs: (settings.timeoutMs ?? MAX_CONVERSION_MS) + STORE_MARGIN_MS,
      maxAttempts: CONVERT_ATTEMPTS,
      backoff: (attempt) => attempt * 30_000,
    },
  );
  ctx.jobs.register(pageImagesKind, (payload, job) => bringImagesToReadingResolution(ctx, payload.hash, job), {
    timeoutMs: settings.timeoutMs ?? MAX_CONVERSION_MS,
    maxAttempts: CONVERT_ATTEMPTS,
    backoff: (attempt) => attempt * 30_000,
  });
  ctx.jobs.register(positionsKind, (payload, job) => fillInPositions(ctx, payload.hash, job), {
    concurrency: 1,
    timeoutMs: settings.timeoutMs ?? MAX_CONVERSION_MS,
    maxAttempts: CONVERT_ATTEMPTS,
    backoff: (attempt) => attempt * 30_000,
  });
  ctx.jobs.register(positionsSweepKind, (_payload, job) => queueMissingPositions(ctx, job), { timeoutMs: 3600_000 });
  ctx.jobs.register(purgeFilesKind, async ({ hash }) => {
    await purgeFiles(ctx, hash);
  });
  ctx.jobs.register(
    reindexDocumentsKind,
    async ({ refill }) => {
      await rebuildSearchIndex(ctx, { refill });
    },
    { timeoutMs: 6 * 3600_000 },
  );
}

async function registerDocumentRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  registerDocumentJobs(ctx);
  registerPageRoutes(app, ctx);
  await scheduleHotDocuments(ctx);
  app.addHook('onReady', async () => {
    await resumeConversions(ctx);
    await scheduleReindexIfNeeded(ctx);
    await scheduleMissingPositions(ctx);
  });
}

export const documentService = defineService(
  'DocumentAPI',
  [...readRpcs, ...readingRpcs, ...libraryRpcs, ...writeRpcs],
  { routes: registerDocumentRoutes },
);

export const recycleService = defineService('RecycleAPI', recycleRpcs);
