import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTE_NAMES, type ExposedModule, type ExposedName, type ExposedProps, type RemoteName, type RuntimeConfig } from '@marketplace/shared';

/** How long a slot waits for its remote before showing its fallback (the load may still finish). */
export const REMOTE_LOAD_TIMEOUT_MS = 8000;

/**
 * Registers every remote's manifest URL from the runtime config: nothing is fetched until a
 * route or slot asks for one of its modules (share strategy loaded-first, set in the preset).
 */
export function registerPlatformRemotes(config: RuntimeConfig): void {
  registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: config.remotes[name] })));
  registerPlugins([
    {
      name: 'platform-slot-errors',
      // A failed remote is its slot's business: log it and let loadRemote reject.
      errorLoadRemote({ id, error }) {
        console.warn(`[shell] remote ${id} failed to load: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      },
    },
  ]);
}

export class RemoteLoadError extends Error {
  constructor(
    readonly id: string,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteLoadError';
  }
}

/** Loads an exposed component, or rejects: failed, or not a component. */
export async function loadExposed<R extends RemoteName, M extends ExposedName<R>>(remote: R, module: M): Promise<ExposedModule<ExposedProps<R, M>>> {
  const id = `${remote}/${module}`;
  const loaded = await loadRemote<ExposedModule<ExposedProps<R, M>>>(id);
  if (!loaded || typeof loaded.default !== 'function') throw new RemoteLoadError(id, `${id} is not a component`);
  return loaded;
}

export type Loader = typeof loadExposed;

/** Rejects with `onTimeout()` when `promise` has not settled within `ms` (it may still settle later). */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
