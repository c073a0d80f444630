import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// `npm run dev` serves the SPA and forwards API and file calls to a running gateway (or
// backend); the gateway keeps the login cookie, so point it at the gateway for log-ins.
const proxyTarget = process.env.VITE_PROXY_TARGET ?? 'http://localhost:3000';
const proxied = { target: proxyTarget, changeOrigin: false, ws: false };

export default defineConfig({
  root: webRoot,
  // node_modules is shared between git worktrees, so the optimiser cache lives in the repo.
  cacheDir: `${repoRoot}.tmp/vite`,
  plugins: [react()],
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
      onwarn(warning, warn) {
        // Semi's barrel reaches a markdown renderer with "use client" directives; tree-shaken anyway.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        // lottie-web (Semi's Lottie component, unused and tree-shaken) uses a direct eval.
        if (warning.code === 'EVAL' && warning.id?.includes('lottie-web')) return;
        warn(warning);
      },
    },
  },
});
