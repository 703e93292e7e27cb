// No React here: federation.ts imports this, and it runs before the shared singletons are
// negotiated (shell/src/index.ts); the hook reading it lives in RemoteSlot.
import type { RemoteName } from '@marketplace/shared/platform';

/**
 * A counter per remote, moved on when the page switches the remote to another version (a rollback
 * it learned of on navigation): each slot of that remote loads its module again.
 */
const generations = new Map<RemoteName, number>();
const listeners = new Set<() => void>();

export const remoteGenerations = {
  get: (remote: RemoteName): number => generations.get(remote) ?? 0,
  bump(remote: RemoteName): void {
    generations.set(remote, (generations.get(remote) ?? 0) + 1);
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
