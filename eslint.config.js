// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// ---- backend layers -------------------------------------------------------------------
// Imports flow one way: modules → platform → wire → db → shared (backend/README.md). The
// patterns match relative specifiers by folder name; the names are unique within backend/.
const backendOutside = {
  regex: '^(\\.\\./)+(gateway|web|tests|bench|scripts)(/|$)',
  message: 'backend/ stands alone: it imports shared/, never gateway/, web/, tests/, bench/ or scripts/.',
};
const backendRoot = {
  regex: '^(\\.\\./)+(app|seed|config|server)$',
  message: 'app.ts, seed.ts, config.ts and server.ts compose the backend; nothing below them imports them.',
};
const intoFolders = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const backendLayer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [backendOutside, backendRoot, ...patterns] }] },
});
const backendLayers = [
  { files: ['backend/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [backendOutside] }] } },
  backendLayer(['backend/modules/**/*.ts'], [{
    // `../<module>/<file>`: only another module's service.ts and messages.ts are open to it.
    regex: '^\\.\\./[^/.][^/]*/(?!(service|messages)$)[^/]+$',
    message: 'A module uses another module through its service.ts (and encodes its messages.ts), never its store, routes or seed.',
  }]),
  backendLayer(['backend/platform/**/*.ts'], [intoFolders(['modules'], 'platform/ is infrastructure: it never imports a module.')]),
  backendLayer(['backend/wire/**/*.ts'], [intoFolders(['platform', 'modules'], 'wire/ is the protocol: it imports db/ and shared/ only.')]),
  backendLayer(['backend/db/**/*.ts'], [intoFolders(['wire', 'platform', 'modules'], 'db/ is the bottom layer: it imports shared/ only.')]),
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'web/dist', 'data', 'coverage', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...backendLayers,
  {
    // shared/ is pure: no Node or browser APIs, nothing outside itself.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '../gateway/*', '../backend/*', '../web/*', 'fs', 'path'] }],
    },
  },
);
