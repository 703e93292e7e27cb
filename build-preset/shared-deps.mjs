import { createRequire } from 'node:module';

/** @type {{ version: string }} */
const sharedPackage = createRequire(import.meta.url)('@marketplace/shared/package.json');

/**
 * Modules that must exist once in the page. Keys match exact import strings, so subpaths are
 * listed (react-dom does not cover react-dom/client). The router is not listed: apps use it
 * through @marketplace/shared (shared/src/router.ts), so it exists once with the shared package
 * while each build keeps only the parts of react-router it uses.
 */
export const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'zustand',
  'styled-components',
  '@tanstack/react-query',
  '@marketplace/shared',
];

/** Module Federation `shared` for every app: singletons; a version mismatch warns, never loads a second copy. */
export function sharedConfig() {
  return Object.fromEntries(
    SINGLETONS.map((name) => [
      name,
      {
        singleton: true,
        strictVersion: false,
        ...(name === '@marketplace/shared'
          ? { requiredVersion: `^${sharedPackage.version}`, version: sharedPackage.version }
          : {}),
      },
    ]),
  );
}
