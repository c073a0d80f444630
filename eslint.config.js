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
  regex: '^(\\.\\./)+(app|seed|config|server|worker)$',
  message: 'app.ts, seed.ts, config.ts, server.ts and worker.ts compose the backend; nothing below them imports them.',
};
const intoFolders = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const backendLayer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [backendOutside, backendRoot, ...patterns] }] },
});
const backendLayers = [
  { files: ['backend/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [backendOutside] }] } },
  backendLayer(
    ['backend/modules/**/*.ts'],
    [
      {
        // `../<module>/<file>`: only another module's service.ts is open to it (messages live in shared/messages/).
        regex: '^\\.\\./[^/.][^/]*/(?!service$)[^/]+$',
        message: 'A module uses another module through its service.ts, never its store, routes or seed.',
      },
    ],
  ),
  backendLayer(
    ['backend/platform/**/*.ts'],
    [intoFolders(['modules'], 'platform/ is infrastructure: it never imports a module.')],
  ),
  backendLayer(
    ['backend/wire/**/*.ts'],
    [intoFolders(['platform', 'modules'], 'wire/ is the protocol: it imports db/ and shared/ only.')],
  ),
  backendLayer(
    ['backend/db/**/*.ts'],
    [intoFolders(['wire', 'platform', 'modules'], 'db/ is the bottom layer: it imports shared/ only.')],
  ),
];

/**
 * One config block per web folder (later blocks replace the rule for their files, so each
 * lists everything its folder may not import). `below`: the folders a file there may not
 * reach; `semi`: whether it may import Semi. Static imports through no-restricted-imports,
 * dynamic `import()` (lazy routes) through no-restricted-syntax.
 */
function webLayers(zones) {
  const folder = (names) => `(^|/)(${names.join('|')})/`;
  const server = { regex: folder(['gateway', 'backend']), message: 'The SPA never imports gateway/ or backend/ code.' };
  const semi = { regex: '^@douyinfe/', message: 'Semi is imported only through web/src/ui/ (the one door to Semi).' };
  // The first screen the gateway renders shows every lazy part as its fallback, as the browser's first render does.
  const reactLazy = {
    name: 'react',
    importNames: ['lazy'],
    message: "lazy comes from web/src/ui/lazy.ts (the gateway's first screen swaps it).",
  };
  return zones.map((zone) => {
    const layers = zone.below.length
      ? [
          {
            regex: folder(zone.below),
            message: `web layers: this folder may not import ${zone.below.join('/, ')}/ (imports flow pages → features → kit, api, ui).`,
          },
        ]
      : [];
    const patterns = [server, ...layers, ...(zone.semi ? [] : [semi])].map((p) => ({ ...p, caseSensitive: true }));
    return {
      files: zone.files,
      rules: {
        'no-restricted-imports': ['error', { paths: [reactLazy], patterns }],
        'no-restricted-syntax': [
          'error',
          ...patterns.map((p) => ({
            selector: `ImportExpression[source.value=/${p.regex.replaceAll('/', '\\/')}/]`,
            message: p.message,
          })),
        ],
      },
    };
  });
}

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

  // web layers: imports flow one way, pages → features → kit, api, ui → shared, with app/ and
  // layouts/ on top; Semi only through ui/; no gateway/ or backend/ code in the SPA. Features
  // may import other features, without cycles (checked by tests/web/layers.test.ts).
  ...webLayers([
    { files: ['web/**/*.{ts,tsx}'], below: [] },
    { files: ['web/src/layouts/**/*.{ts,tsx}'], below: ['app', 'pages'] },
    { files: ['web/src/pages/**/*.{ts,tsx}'], below: ['app', 'layouts'] },
    { files: ['web/src/features/**/*.{ts,tsx}'], below: ['app', 'layouts', 'pages'] },
    { files: ['web/src/kit/**/*.{ts,tsx}'], below: ['app', 'layouts', 'pages', 'features'] },
    { files: ['web/src/api/**/*.{ts,tsx}'], below: ['app', 'layouts', 'pages', 'features', 'kit', 'ui'] },
    { files: ['web/src/ui/**/*.{ts,tsx}'], below: ['app', 'layouts', 'pages', 'features', 'kit', 'api'], semi: true },
  ]),
  {
    // shared/ is pure: no Node or browser APIs, nothing outside itself.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', '../gateway/*', '../backend/*', '../web/*', 'fs', 'path'] },
      ],
    },
  },
);
