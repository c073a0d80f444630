// After `vite build`: write `<file>.br` and `<file>.gz` beside every compressible file in
// web/dist/assets, so the gateway serves them pre-compressed (no compression per request).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// Already compressed formats gain nothing.
const SKIP = /\.(?:br|gz|png|jpe?g|gif|webp|avif|ico|woff2?|zip|mp4|webm|mp3)$/i;
const MIN_SIZE = 256;

export interface CompressResult {
  file: string;
  size: number;
  br?: number;
  gz?: number;
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses every eligible file under `dir`; a variant is written only when it is smaller. */
export async function compressAssets(dir: string): Promise<CompressResult[]> {
  const results: CompressResult[] = [];
  for await (const file of files(dir)) {
    if (SKIP.test(file)) continue;
    const { size } = await stat(file);
    if (size < MIN_SIZE) continue;
    const content = await readFile(file);
    const result: CompressResult = { file, size };
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: size,
      },
    });
    if (br.length < size) {
      await writeFile(`${file}.br`, br);
      result.br = br.length;
    }
    const gz = gzipSync(content, { level: 9 });
    if (gz.length < size) {
      await writeFile(`${file}.gz`, gz);
      result.gz = gz.length;
    }
    results.push(result);
  }
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'web/dist/assets');
  const results = await compressAssets(dir);
  const total = results.reduce((n, r) => n + r.size, 0);
  const brTotal = results.reduce((n, r) => n + (r.br ?? r.size), 0);
  console.log(`compressed ${results.length} files in ${dir}: ${total} B → ${brTotal} B brotli`);
}
