// Initial JS and CSS per route group, from the Vite manifest (web/dist/.vite/manifest.json):
// the closure over static `imports` of the entry plus the lazy modules the route loads, CSS
// as the union of `css` over that closure; each file compressed with node:zlib.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readManifest, staticClosure, type Manifest } from '../../tests/helpers/web-bundle';

export interface RouteGroupSpec {
  name: string;
  /** the page a visitor opens */
  url: string;
  /** manifest keys of the lazy modules the router loads for it (layout, screen) */
  lazyModules: string[];
}

// The router (web/src/app/router.tsx) keeps home in the entry chunk and loads every other
// screen, and the member and admin layouts, lazily.
export const ROUTE_GROUPS: RouteGroupSpec[] = [
  { name: 'public home', url: '/', lazyModules: [] },
  {
    name: 'member screen',
    url: '/member',
    lazyModules: ['src/layouts/MemberLayout.tsx', 'src/pages/member/MemberOverviewPage.tsx'],
  },
  {
    name: 'admin dashboard',
    url: '/admin/dashboard',
    lazyModules: ['src/layouts/AdminLayout.tsx', 'src/pages/admin/AdminDashboardPage.tsx'],
  },
];

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface RouteWeight {
  group: RouteGroupSpec;
  jsFiles: string[];
  cssFiles: string[];
  js: Sizes;
  css: Sizes;
}

const ZERO: Sizes = { raw: 0, gzip: 0, brotli: 0 };
const add = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli });

/** Manifest keys of the entry and of everything it and the given lazy modules import statically. */
export function initialChunks(manifest: Manifest, lazyModules: readonly string[]): string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (entries.length === 0) throw new Error('the Vite manifest has no entry chunk');
  const missing = lazyModules.filter((key) => manifest[key] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `not in the Vite manifest: ${missing.join(', ')}; the router changed, update ROUTE_GROUPS in bench/lib/bundle.ts`,
    );
  }
  return [...staticClosure(manifest, [...entries, ...lazyModules])];
}

export async function routeWeights(
  webDist: string,
  groups: readonly RouteGroupSpec[] = ROUTE_GROUPS,
): Promise<RouteWeight[]> {
  const manifest = readManifest(webDist);
  const cache = new Map<string, Sizes>();
  async function sizesOf(file: string): Promise<Sizes> {
    const known = cache.get(file);
    if (known) return known;
    const content = await readFile(join(webDist, file));
    const sizes = {
      raw: content.length,
      gzip: gzipSync(content, { level: 9 }).length,
      brotli: brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }).length,
    };
    cache.set(file, sizes);
    return sizes;
  }

  const weights: RouteWeight[] = [];
  for (const group of groups) {
    const chunks = initialChunks(manifest, group.lazyModules).map((key) => manifest[key]!);
    const jsFiles = [...new Set(chunks.map((chunk) => chunk.file).filter((file) => /\.m?js$/.test(file)))];
    const cssFiles = [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))];
    let js = ZERO;
    for (const file of jsFiles) js = add(js, await sizesOf(file));
    let css = ZERO;
    for (const file of cssFiles) css = add(css, await sizesOf(file));
    weights.push({ group, jsFiles, cssFiles, js, css });
  }
  return weights;
}
