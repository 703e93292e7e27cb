import { readFileSync } from 'node:fs';

const sharedPackage = JSON.parse(readFileSync(new URL('../shared/package.json', import.meta.url), 'utf8'));

/**
 * Modules that must exist once in the page. Keys match exact import strings, so subpaths are
 * listed (react-dom does not cover react-dom/client). react-router is listed because
 * react-router-dom re-exports it: two copies would mean two router contexts.
 */
export const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'react-router',
  'react-router-dom',
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
        ...(name === '@marketplace/shared' ? { requiredVersion: `^${sharedPackage.version}`, version: sharedPackage.version } : {}),
      },
    ]),
  );
}
