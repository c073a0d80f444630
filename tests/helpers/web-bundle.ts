// Initial JavaScript of a screen from Vite's manifest: the entry plus the screen's lazy
// chunks, with everything they import statically (what the browser must fetch before the
// screen renders), measured gzip -9 in KiB (1024 bytes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Manifest keys of `roots` and of every chunk they import statically, transitively. */
export function staticClosure(manifest: Manifest, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  roots.forEach(visit);
  return seen;
}

export interface BundleSize {
  files: string[];
  cssFiles: string[];
  jsGzipKiB: number;
  cssGzipKiB: number;
}

export function measure(distDir: string, manifest: Manifest, roots: readonly string[]): BundleSize {
  const keys = staticClosure(manifest, roots);
  const files = [...keys].map((k) => (manifest[k] as ManifestChunk).file);
  const css = new Set([...keys].flatMap((k) => manifest[k]?.css ?? []));
  const gz = (file: string) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return {
    files,
    cssFiles: [...css],
    jsGzipKiB: kib(files.reduce((sum, f) => sum + gz(f), 0)),
    cssGzipKiB: kib([...css].reduce((sum, f) => sum + gz(f), 0)),
  };
}
