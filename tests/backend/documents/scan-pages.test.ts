import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useBackend, withDatabase } from '../../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../../helpers/document-api';
import { jpegPdf, scanJpegs } from '../../helpers/documents';

// A scanned PDF reads as soon as its conversion ends, each scan page being the JPEG the PDF
// stores; a job of its own then makes each page a WebP at reading resolution (scan-pages.ts),
// 16 pages at a time. One conversion thread, so that the job's pages take long enough to watch.
// (A process killed during that job: tests/backend/documents/restart.test.ts.)

const PAGES = 40;
const hashFolder = (dataDir: string, hash: string) => path.join(dataDir, 'documents', ...hash.slice(0, 5).split(''), hash);
const manifestOf = (dataDir: string, hash: string) => JSON.parse(fs.readFileSync(path.join(hashFolder(dataDir, hash), 'manifest.json'), 'utf8')) as {
  pageFiles: string[];
  scans?: Record<string, unknown>;
};

async function pageOf(url: string, hash: string, n: number, token: string) {
  const res = await request(`${url}/view/page/${hash}/${n}.webp`, { headers: { authorization: `Bearer ${token}` } });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, type: res.headers['content-type'], image: res.statusCode === 200 ? await sharp(body).metadata() : null };
}

async function scanJobs(dataDir: string, hash: string) {
  return withDatabase(dataDir, (db) => db.prepare('SELECT state, attempts FROM job WHERE kind = ? AND dedupe_key = ? ORDER BY id')
    .all('document.scan-webp', `document.scan-webp:${hash}`) as { state: string; attempts: number }[]);
}

const backend = useBackend({ env: { CONVERT_WORKERS: '1' } });

describe('a scanned PDF', () => {
  it('reads as the scanner’s JPEGs once converted, then as WebPs at reading resolution, the JPEGs gone', async () => {
    const [jpeg] = await scanJpegs(1, 200);
    const pdf = jpegPdf(Array.from({ length: PAGES }, () => ({ jpeg: jpeg! })));
    const member = await uploader(backend.url, backend.adminToken);
    const doc = await createDocument(backend.url, member.token, pdf, '扫描书.pdf');
    expect(await waitForStatus(backend.url, member.token, doc.id, [2, 3], 120_000)).toMatchObject({ status: 2, pages: PAGES, preview_ext: '.webp' });
    // Converted: every page is there, the last ones still the JPEGs (the job has 32 pages to do first).
    const last = await pageOf(backend.url, doc.hash, PAGES, member.token);
    expect(last).toMatchObject({ status: 200, type: 'image/jpeg', image: { format: 'jpeg', width: 1654, height: 2339 } });
    expect(manifestOf(backend.dataDir, doc.hash).scans).toHaveProperty(String(PAGES), { width: 1240, height: 1754, smooth: false });

    for (let waited = 0; (await scanJobs(backend.dataDir, doc.hash)).at(-1)?.state !== 'done'; waited += 200) {
      if (waited > 120_000) throw new Error(`the WebP job did not end: ${JSON.stringify(await scanJobs(backend.dataDir, doc.hash))}`);
      await sleep(200);
    }
    const after = manifestOf(backend.dataDir, doc.hash);
    expect(after.scans).toBeUndefined();
    expect(after.pageFiles).toEqual(Array.from({ length: PAGES }, (_, i) => `${i + 1}.webp`));
    const stored = fs.readdirSync(hashFolder(backend.dataDir, doc.hash)).filter((f) => /^\d+\./.test(f));
    expect(stored.sort()).toEqual([...after.pageFiles].sort());
    for (const n of [1, PAGES]) {
      // A4 at 150 dpi, whatever extension is asked for
      expect(await pageOf(backend.url, doc.hash, n, member.token)).toMatchObject({ status: 200, type: 'image/webp', image: { format: 'webp', width: 1240, height: 1754 } });
    }
    const weights = after.pageFiles.map((file) => fs.statSync(path.join(hashFolder(backend.dataDir, doc.hash), file)).size);
    expect(Math.max(...weights)).toBeLessThan(Math.min(128 * 1024, jpeg!.length / 4));
    // The document is as it was: converted, same pages.
    expect(await waitForStatus(backend.url, member.token, doc.id, [2])).toMatchObject({ pages: PAGES });
  }, 240_000);
});
