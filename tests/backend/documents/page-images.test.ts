import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useBackend, withDatabase } from '../../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../../helpers/document-api';
import { illustratedPdf, jpegPdf, scanJpegs } from '../../helpers/documents';

// A scanned or illustrated PDF reads as soon as its conversion ends, its images as the PDF
// stores them; a job of its own then brings them to reading resolution (page-images.ts), 16
// pages at a time. One conversion thread, so that the job's pages take long enough to watch.
// (A process killed during that job: tests/backend/documents/restart.test.ts.)

const PAGES = 40;
const hashFolder = (dataDir: string, hash: string) =>
  path.join(dataDir, 'documents', ...hash.slice(0, 5).split(''), hash);
const manifestOf = (dataDir: string, hash: string) =>
  JSON.parse(fs.readFileSync(path.join(hashFolder(dataDir, hash), 'manifest.json'), 'utf8')) as {
    pageFiles: string[];
    pendingImages?: Record<string, unknown>;
    convertedAt: string;
  };

async function pageOf(url: string, hash: string, n: number, token: string) {
  const res = await request(`${url}/view/page/${hash}/${n}.webp`, { headers: { authorization: `Bearer ${token}` } });
  const body = Buffer.from(await res.body.arrayBuffer());
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    image: res.statusCode === 200 ? await sharp(body).metadata() : null,
  };
}

async function imageJobs(dataDir: string, hash: string) {
  return withDatabase(dataDir, (db) =>
    db
      .selectFrom('job')
      .select(['state', 'attempts'])
      .where('kind', '=', 'document.page-images')
      .where('dedupe_key', '=', `document.page-images:${hash}`)
      .orderBy('id')
      .execute(),
  );
}

/** Waits for the file's page images job to end. */
async function imagesDone(dataDir: string, hash: string): Promise<void> {
  for (let waited = 0; (await imageJobs(dataDir, hash)).at(-1)?.state !== 'done'; waited += 200) {
    if (waited > 120_000)
      throw new Error(`the page images job did not end: ${JSON.stringify(await imageJobs(dataDir, hash))}`);
    await sleep(200);
  }
}

const backend = useBackend({ env: { CONVERT_WORKERS: '1' } });

describe('a scanned PDF', () => {
  // One scanned book for both: its first images run given way to a reconversion, the run after that to its end.
  it('reads as the scanner’s JPEGs once converted, then as WebPs at reading resolution, the JPEGs gone; the images job gives way to a reconversion asked while it runs, runs again after it, and leaves no page file but the manifest’s', async () => {
    const [jpeg] = await scanJpegs(1, 200);
    const pdf = jpegPdf(Array.from({ length: PAGES }, () => ({ jpeg: jpeg! })));
    const member = await uploader(backend.url, backend.adminToken);
    const doc = await createDocument(backend.url, member.token, pdf, '扫描书.pdf');
    expect(await waitForStatus(backend.url, member.token, doc.id, [2, 3], 120_000)).toMatchObject({
      status: 2,
      pages: PAGES,
      preview_ext: '.webp',
    });
    // Converted: every page is there, the last ones still the JPEGs (the job has 32 pages to do first).
    const last = await pageOf(backend.url, doc.hash, PAGES, member.token);
    expect(last).toMatchObject({
      status: 200,
      type: 'image/jpeg',
      image: { format: 'jpeg', width: 1654, height: 2339 },
    });
    const first = manifestOf(backend.dataDir, doc.hash);
    expect(first.pendingImages).toHaveProperty(String(PAGES), {
      scan: { width: 1240, height: 1754, smooth: false },
    });

    expect((await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [doc.id] } })).status).toBe(200);
    // converted again (a manifest of its own), then brought to reading resolution once more
    for (let waited = 0; ; waited += 200) {
      const jobs = await imageJobs(backend.dataDir, doc.hash);
      // (no manifest while the file converts again)
      const manifest = fs.existsSync(path.join(hashFolder(backend.dataDir, doc.hash), 'manifest.json'))
        ? manifestOf(backend.dataDir, doc.hash)
        : null;
      if (
        jobs.length >= 2 &&
        jobs.every((job) => job.state === 'done') &&
        manifest &&
        manifest.pendingImages === undefined &&
        manifest.convertedAt !== first.convertedAt
      )
        break;
      if (waited > 180_000) throw new Error(`still waiting: ${JSON.stringify(jobs)}`);
      await sleep(200);
    }
    const after = manifestOf(backend.dataDir, doc.hash);
    expect(after.convertedAt).not.toBe(first.convertedAt);
    expect(after.pendingImages).toBeUndefined();
    expect(after.pageFiles).toEqual(Array.from({ length: PAGES }, (_, i) => `${i + 1}.webp`));
    const stored = fs.readdirSync(hashFolder(backend.dataDir, doc.hash)).filter((f) => /^\d+\.(?!pos\.gz$)/.test(f));
    expect(stored.sort()).toEqual([...after.pageFiles].sort());
    for (const n of [1, PAGES]) {
      // A4 at 150 dpi, whatever extension is asked for
      expect(await pageOf(backend.url, doc.hash, n, member.token)).toMatchObject({
        status: 200,
        type: 'image/webp',
        image: { format: 'webp', width: 1240, height: 1754 },
      });
    }
    const weights = after.pageFiles.map(
      (file) => fs.statSync(path.join(hashFolder(backend.dataDir, doc.hash), file)).size,
    );
    expect(Math.max(...weights)).toBeLessThan(Math.min(128 * 1024, jpeg!.length / 4));
    // The document is as it was: converted, same pages.
    expect(await waitForStatus(backend.url, member.token, doc.id, [2])).toMatchObject({ pages: PAGES });
  }, 240_000);

  it('an illustrated PDF reads at once, its pages plain SVGs with the photos as stored; then gzip SVGs with the photos at reading resolution', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const doc = await createDocument(backend.url, member.token, await illustratedPdf(2), '年度报告.pdf');
    // page 1 a plain SVG: asked for as .svg
    expect(await waitForStatus(backend.url, member.token, doc.id, [2, 3], 120_000)).toMatchObject({
      status: 2,
      pages: 2,
      preview_ext: '.svg',
    });
    await imagesDone(backend.dataDir, doc.hash);
    // then a gzip SVG: asked for as .gzip.svg, as MOREDOC's clients build the address
    expect(await waitForStatus(backend.url, member.token, doc.id, [2])).toMatchObject({
      enable_gzip: true,
      preview_ext: '.svg',
    });
    const after = manifestOf(backend.dataDir, doc.hash);
    expect(after.pendingImages).toBeUndefined();
    expect(after.pageFiles).toEqual(['1.gzip.svg', '2.gzip.svg']);
    // the plain SVGs the conversion left are gone
    expect(
      fs
        .readdirSync(hashFolder(backend.dataDir, doc.hash))
        .filter((f) => /^\d+\.(?!pos\.gz$)/.test(f))
        .sort(),
    ).toEqual(['1.gzip.svg', '2.gzip.svg']);
    for (const n of [1, 2]) {
      const res = await request(`${backend.url}/view/page/${doc.hash}/${n}.svg`, {
        headers: { authorization: `Bearer ${member.token}` },
      });
      const svg = Buffer.from(await res.body.arrayBuffer()).toString('latin1');
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(svg).not.toContain('data:image/jpeg');
      const photo = Buffer.from(/data:image\/webp;base64,([^"]*)"/.exec(svg)![1]!, 'base64');
      expect(await sharp(photo).metadata()).toMatchObject({ format: 'webp', width: 1000, height: 667 });
      expect(fs.statSync(path.join(hashFolder(backend.dataDir, doc.hash), `${n}.gzip.svg`)).size).toBeLessThan(
        160 * 1024,
      );
    }
  }, 120_000);

  it('deletes, when it runs again, the page files a run ended between its manifest and its deletions left behind', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    // A file of its own: the same bytes as the test before would find that one's images job done, and go on before
    // this upload's own run (the file converted again, then its images queued once more) was queued.
    const file = Buffer.concat([await illustratedPdf(2), Buffer.from('% 中断后的报告\n')]);
    const doc = await createDocument(backend.url, member.token, file, '中断后的报告.pdf');
    await waitForStatus(backend.url, member.token, doc.id, [2], 120_000);
    await imagesDone(backend.dataDir, doc.hash);
    const folder = hashFolder(backend.dataDir, doc.hash);
    // what a process killed there leaves: a page the manifest no longer names, and one written for it
    fs.writeFileSync(path.join(folder, '1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(folder, '2.webp'), 'RIFF');
    // the job's lease ran out after the restart: it is claimed again
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('job')
        .set({ state: 'queued', run_after: new Date().toISOString() })
        .where('kind', '=', 'document.page-images')
        .where('dedupe_key', '=', `document.page-images:${doc.hash}`)
        .execute(),
    );
    await imagesDone(backend.dataDir, doc.hash);
    expect(fs.readdirSync(folder).sort()).toEqual([
      '1.gzip.svg',
      '1.pos.gz',
      '2.gzip.svg',
      '2.pos.gz',
      'cover.big.png',
      'cover.png',
      'cover.webp',
      'manifest.json',
      'text.txt',
    ]);
    expect(manifestOf(backend.dataDir, doc.hash).pageFiles).toEqual(['1.gzip.svg', '2.gzip.svg']);
  }, 120_000);
});
