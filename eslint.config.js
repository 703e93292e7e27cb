// One lint configuration for every package (run from the root: `pnpm lint`).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-single/**', 'e2e/bench/results/**', '**/data/**', '**/coverage/**', 'api/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'mqtt', message: 'Only the live channel owns the MQTT client (shared live module, api/src/live).' },
            // A router imported past the shared package would be a second router context in the page.
            { name: 'react-router', message: "Import the router from '@marketplace/shared' (shared/src/router.ts)." },
            { name: 'react-router-dom', message: "Import the router from '@marketplace/shared' (shared/src/router.ts)." },
          ],
        },
      ],
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
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['*/tsconfig.json'], alwaysTryTypes: true, noWarnOnMultipleProjects: true })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: false }],
      'import-x/no-relative-packages': 'error',
    },
  },
  {
    // The modules that own an MQTT client, and tests that play a browser's client.
    files: ['api/src/live/**', 'api/test/**', 'shared/src/live/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The one module that imports the router.
    files: ['shared/src/router.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
