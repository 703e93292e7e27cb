import type { RemoteName, RuntimeConfig } from '@marketplace/shared';

/** webpack's lazy module context (import.meta.webpackContext), as far as this file uses it. */
interface LazyContext {
  (request: string): Promise<unknown>;
  keys(): string[];
}
declare global {
  interface ImportMeta {
    webpackContext(directory: string, options: { recursive: boolean; regExp: RegExp; mode: 'lazy' }): LazyContext;
  }
}

/**
 * The single-bundle build's stand-in for ./federation.ts: the same remotes' exposed modules,
 * imported statically at build time (each still its own lazy chunk, so routes split the same
 * way), with no federation runtime. `@exposes/*` are aliases set by build-preset/single.mjs.
 */
const EXPOSES: Record<RemoteName, LazyContext> = {
  header: import.meta.webpackContext('@exposes/header', { recursive: false, regExp: /\.tsx$/, mode: 'lazy' }),
  media: import.meta.webpackContext('@exposes/media', { recursive: false, regExp: /\.tsx$/, mode: 'lazy' }),
  eventOrder: import.meta.webpackContext('@exposes/eventOrder', { recursive: false, regExp: /\.tsx$/, mode: 'lazy' }),
  account: import.meta.webpackContext('@exposes/account', { recursive: false, regExp: /\.tsx$/, mode: 'lazy' }),
};

/** Nothing to register or discover: every remote is part of the bundle, which knows its chunks. */
export function startFederation(_config: RuntimeConfig, _pathname: string): void {}

/** `fresh` changes nothing here: the bundle's modules are its own build. */
export function loadRemoteModule(id: string, _fresh = false): Promise<unknown> {
  const [remote, module] = id.split('/') as [RemoteName, string];
  return EXPOSES[remote](`./${module}.tsx`);
}

/** No manifests: every remote is part of the bundle (the beacon reports them unreleased). */
export const entriesInUse = (): Readonly<Record<string, string>> => ({});

/** One build, never rolled back in part: no config to check against (./rollbacks.ts does nothing). */
export const startedWith = (): null => null;
export const registeredEntries = (): Promise<Readonly<Record<string, string>>> => Promise.resolve({});
export function switchRemote(_name: RemoteName, _entry: string): void {}
