// A tester's versions in one tab (`?version=header@<version>`), kept in the tab's storage across
// its pages, and the ones in effect on this page (the shell's marker shows them).
import { OVERRIDE_PARAM, overridesIn, REMOTE_NAMES } from '@marketplace/shared/platform';
import type { Overrides } from './choice.js';

export { OVERRIDE_PARAM };

/** Where a tab keeps the versions its tester asked for. */
export const OVERRIDES_KEY = 'platform-version-overrides';

/** The versions kept in the tab's storage (unreadable: none). */
export function keptOverrides(storage: Pick<Storage, 'getItem'>): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(storage.getItem(OVERRIDES_KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The versions a tester asked for in this tab: those in the address (`?version=remote@version`,
 * repeatable) are added to the ones kept in the tab's storage; `?version=clear` forgets them.
 * Only names of remotes and version-shaped values are kept: they are checked against the store later.
 */
export function requestedOverrides(
  search: string,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
): Overrides {
  const valid = overridesIn(search, keptOverrides(storage), REMOTE_NAMES) as Overrides;
  if (Object.keys(valid).length === 0) storage.removeItem(OVERRIDES_KEY);
  else storage.setItem(OVERRIDES_KEY, JSON.stringify(valid));
  return valid;
}

/** The overrides in effect on this page (shown by the shell's marker). */
let applied: Overrides = {};
const listeners = new Set<() => void>();
export const appliedOverrides = {
  get: (): Overrides => applied,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
export function setAppliedOverrides(next: Overrides): void {
  applied = next;
  for (const listener of listeners) listener();
}
