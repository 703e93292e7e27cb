import type { ExposedModule, ExposedName, ExposedProps, RemoteName } from '@marketplace/shared';
import { withTimeout } from '@marketplace/shared/timeout';
// The single-bundle build swaps this module for ./single.ts (build-preset/single.mjs).
import { loadRemoteModule } from './federation.js';

/** How long a slot waits for its remote before showing its fallback (the load may still finish). */
export const REMOTE_LOAD_TIMEOUT_MS = 8000;

class RemoteLoadError extends Error {
  constructor(
    readonly id: string,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteLoadError';
  }
}

/**
 * Loads an exposed component, or rejects: failed, or not a component. `fresh`: fetch the remote
 * again rather than reuse what the page loaded (after its module threw while rendering).
 */
export async function loadExposed<R extends RemoteName, M extends ExposedName<R>>(
  remote: R,
  module: M,
  options: { fresh?: boolean } = {},
): Promise<ExposedModule<ExposedProps<R, M>>> {
  const id = `${remote}/${module}`;
  const loaded = (await loadRemoteModule(id, options.fresh)) as ExposedModule<ExposedProps<R, M>> | null | undefined;
  if (!loaded || typeof loaded.default !== 'function') throw new RemoteLoadError(id, `${id} is not a component`);
  return loaded;
}

/** A remote that did not load within the slot's timeout (its slot falls back; the load may still finish). */
class RemoteTimeoutError extends RemoteLoadError {
  override name = 'RemoteTimeoutError';
}

export type Loader = typeof loadExposed;

/**
 * A slot's load: `loader`'s module for `remote/module`, or a RemoteTimeoutError past `ms` (the
 * slot falls back; the load may still finish). The slot's own loads and the modules a page its
 * server rendered starts with (bootstrap.tsx) go through it.
 */
export function loadWithin<R extends RemoteName, M extends ExposedName<R>>(
  remote: R,
  module: M,
  ms: number,
  { loader = loadExposed, fresh = false }: { loader?: Loader; fresh?: boolean } = {},
): Promise<ExposedModule<ExposedProps<R, M>>> {
  const id = `${remote}/${module}`;
  // A loader may reject with anything (a module's script throws what it likes); the slot reports an Error.
  const loading = loader(remote, module, { fresh }).catch((error: unknown) => {
    throw error instanceof Error ? error : new Error(String(error));
  });
  return withTimeout(loading, ms, () => new RemoteTimeoutError(id, `${id} did not load within ${ms} ms`));
}

/** What a failed load is called in the slot's failure report. */
export const failureKind = (error: unknown): 'timeout' | 'load' =>
  error instanceof RemoteTimeoutError ? 'timeout' : 'load';
