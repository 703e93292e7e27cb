// One lint configuration for every package (run from the root: `pnpm lint`).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrictedPaths = [
  { name: 'mqtt', message: 'Only the live channel owns the MQTT client (shared live module, api/src/live).' },
  // A router imported past the shared package would be a second router context in the page.
  { name: 'react-router', message: "Import the router from '@marketplace/shared' (shared/src/router.ts)." },
  { name: 'react-router-dom', message: "Import the router from '@marketplace/shared' (shared/src/router.ts)." },
];

// The packages' layers: each imports only the packages listed for it, so the arrows between them
// point one way (shared at the bottom; nothing imports an app or the e2e suite).
const APPS = ['shell', 'mf-header', 'mf-media', 'mf-event-order', 'mf-account'];
const MAY_IMPORT = {
  shared: [],
  api: ['shared'],
  'page-server': ['shared'],
  'build-preset': ['shared', 'page-server'],
  releases: ['shared', 'page-server', 'build-preset'],
  ...Object.fromEntries(APPS.map((app) => [app, ['shared', 'page-server', 'build-preset']])),
  e2e: ['shared', 'api', 'page-server', 'build-preset', 'releases'],
};
const layerZones = Object.entries(MAY_IMPORT).map(([pkg, allowed]) => ({
  target: `./${pkg}`,
  from: Object.keys(MAY_IMPORT)
    .filter((other) => other !== pkg && !allowed.includes(other))
    .map((other) => `./${other}`),
  message: `${pkg} may import only ${allowed.join(', ') || 'no other package'} (package layers, eslint.config.js).`,
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-server/**',
      '**/dist-single/**',
      'e2e/bench/results/**',
      '**/data/**',
      '**/coverage/**',
      'api/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: restrictedPaths }],
    },
  },
  {
    // The shape of the code base: no import loops between source files (a loop makes load order
    // and types fragile: the shell's routes once erased their types crossing one), and another
    // package only through its public entry (its package.json exports), never its files.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['*/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: false }],
      'import-x/no-relative-packages': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    // The API's HTTP side (routes, files host, auth, domain rules) stores through the repositories
    // only: SQL and rows stay in api/src/repositories, so a table changes in one place.
    files: ['api/src/{routes,files,http,auth,domain}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...restrictedPaths,
            { name: 'better-sqlite3', message: 'SQL lives in api/src/repositories.' },
            { name: 'kysely', message: 'Queries live in api/src/repositories.' },
            { name: 'pg', message: 'Queries live in api/src/repositories.' },
          ],
          patterns: [
            {
              group: ['**/db/database.js', '**/db/database'],
              message: 'Store and read through the repositories (api/src/repositories), not the database.',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 19: one visual system. The apps' controls come from shared/src/ui (Button, IconButton,
    // PlainButton, TextField, Checkbox, FileField, MenuItem), never a raw element styled on its own.
    files: ['shell/src/**/*.tsx', 'mf-*/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXOpeningElement[name.name=/^(button|input|textarea|select)$/]',
          message:
            'Use the visual system (Button, IconButton, PlainButton, TextField, Checkbox, FileField, MenuItem from @marketplace/shared).',
        },
        {
          selector: "MemberExpression[object.name='styled'][property.name=/^(button|input|textarea|select)$/]",
          message: 'Style controls in shared/src/ui, not in an app: extend a shared component instead.',
        },
        {
          selector: "CallExpression[callee.name='styled'][arguments.0.value=/^(button|input|textarea|select)$/]",
          message: 'Style controls in shared/src/ui, not in an app: extend a shared component instead.',
        },
      ],
    },
  },
  {
    // The API's storage is asynchronous (PostgreSQL or SQLite through the query builder): a
    // promise used as a value (`if (!repos.cart.add(...))`) or dropped unawaited is a bug the type
    // checker alone does not see.
    files: ['api/src/**/*.ts', 'api/test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The modules that own an MQTT client, and tests and the broker's bench that play browsers' clients.
    files: ['api/src/live/**', 'api/test/**', 'api/bench/broker.ts', 'shared/src/live/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The one module that imports the router.
    files: ['shared/src/router.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
