import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import type { OutputBundle, RollupLog } from 'rolldown';
import react from '@vitejs/plugin-react';
import { textSizesInRem } from './text-sizes';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// `npm run dev` serves the SPA and forwards API and file calls to a running gateway (or
// backend); the gateway keeps the login cookie, so point it at the gateway for log-ins.
const proxyTarget = process.env.VITE_PROXY_TARGET ?? 'http://localhost:3000';
const proxied = { target: proxyTarget, changeOrigin: false, ws: false };

const READER_PAGE = `${webRoot}src/pages/public/DocumentPage.tsx`;

/** A chunk's files and those it imports statically, with their CSS, minus the ones in `loaded`. */
function filesOf(bundle: OutputBundle, fileName: string, loaded: Set<string>, found = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (!chunk || chunk.type !== 'chunk' || loaded.has(fileName) || found.has(`/${fileName}`)) return found;
  found.add(`/${fileName}`);
  for (const css of chunk.viteMetadata?.importedCss ?? []) found.add(`/${css}`);
  for (const next of chunk.imports) filesOf(bundle, next, loaded, found);
  return found;
}

/**
 * src/early.ts is an entry of its own (Vite would merge a second script of index.html into
 * the app's entry): its script goes first into the page's head, so the browser runs it as
 * soon as it has arrived, without waiting for the app's code, and it names the reader's
 * files (`data-reader`), which it preloads on a document's page.
 */
function earlyScript(): Plugin {
  return {
    name: 'early-script',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const early = chunks.find((c) => c.isEntry && c.name === 'early');
        const app = chunks.find((c) => c.isEntry && c.name === 'index');
        const reader = chunks.find((c) => c.facadeModuleId === READER_PAGE);
        const attrs: Record<string, string | boolean> = {
          type: 'module',
          crossorigin: true,
          src: early ? `/${early.fileName}` : '/src/early.ts',
        };
        if (ctx.bundle && app && reader) {
          const loaded = new Set([app.fileName, ...app.imports]);
          attrs['data-reader'] = [...filesOf(ctx.bundle, reader.fileName, loaded)].join(' ');
        }
        return { html, tags: [{ tag: 'script', attrs, injectTo: 'head-prepend' }] };
      },
    },
  };
}

function quietWarnings(warning: RollupLog, warn: (warning: RollupLog) => void): void {
  // Semi's barrel reaches a markdown renderer with "use client" directives; tree-shaken anyway.
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
  // lottie-web (Semi's Lottie component, unused and tree-shaken) uses a direct eval.
  if (warning.code === 'EVAL' && warning.id?.includes('lottie-web')) return;
  warn(warning);
}

/**
 * src/early.ts and what it shares with the app: in the early script's own file, which the app
 * imports (the browser has it already), never in the app's chunk, which the script must not wait for.
 */
const EARLY_MODULES = /\/src\/early\.ts$|\/shared\/page-image\.ts$/;

/**
 * In the first screen's build, a module with a `.server.ts` sibling is that sibling: the same
 * exports made without what only a browser has (ui/plain-text.ts reads HTML with DOMParser).
 */
function serverModules(): Plugin {
  return {
    name: 'server-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.startsWith(`${webRoot}src/`) || !resolved.id.endsWith('.ts')) return resolved;
      const sibling = resolved.id.replace(/\.ts$/, '.server.ts');
      return existsSync(sibling) ? sibling : resolved;
    },
  };
}

/**
 * The gateway's build of the first screen (src/entry-server.tsx, `vite build --ssr`): one
 * module for Node with everything it imports (Semi's styles are the SPA's), in production
 * mode, beside the SPA in web/dist/.ssr/, which the gateway never serves.
 */
const firstScreenBuild: UserConfig = {
  plugins: [react(), serverModules()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    outDir: `${webRoot}dist/.ssr`,
    emptyOutDir: true,
    copyPublicDir: false,
    rolldownOptions: {
      input: `${webRoot}src/entry-server.tsx`,
      output: { codeSplitting: false },
      onwarn: quietWarnings,
    },
  },
};

// node_modules is shared between git worktrees, so the optimiser cache lives in the repo. Every
// stylesheet, Semi's too, has its text sizes in rem: text follows the browser's font size.
const both: UserConfig = {
  root: webRoot,
  cacheDir: `${repoRoot}.tmp/vite`,
  css: { postcss: { plugins: [textSizesInRem()] } },
};

// `vite build --ssr` builds the first screen for the gateway; everything else is the SPA.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? { ...both, ...firstScreenBuild }
    : {
        ...both,
        plugins: [react(), earlyScript()],
        // Components read signals through useSignals() (no Babel transform); pre-bundle the
        // runtime so the dev server never serves a second copy of React.
        optimizeDeps: { include: ['@preact/signals-react/runtime'] },
        server: {
          proxy: { '/api': proxied, '/view': proxied, '/uploads': proxied, '/download': proxied },
        },
        build: {
          outDir: `${webRoot}dist`,
          emptyOutDir: true,
          manifest: true,
          assetsDir: 'assets',
          chunkSizeWarningLimit: 1200,
          rolldownOptions: {
            input: { index: `${webRoot}index.html`, early: `${webRoot}src/early.ts` },
            output: {
              // What the first screen imports comes as two chunks (the libraries, which change
              // rarely, and our code) instead of dozens of small shared ones: on a phone's
              // connection each extra file is another round trip before anything shows. ("$initial"
              // follows every static import, re-exports included: hence the separate Semi doors in
              // ui/, semi.ts for the first screen and semi-extra.ts, semi-admin.ts for the rest.)
              codeSplitting: {
                groups: [
                  { name: 'early', test: EARLY_MODULES, priority: 3 },
                  { name: 'vendor', tags: ['$initial'], test: /node_modules/, priority: 2 },
                  { name: 'app', tags: ['$initial'], test: (id: string) => !EARLY_MODULES.test(id), priority: 1 },
                ],
              },
            },
            onwarn: quietWarnings,
          },
        },
      },
);
