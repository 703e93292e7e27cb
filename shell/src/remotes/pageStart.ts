import { useEffect } from 'react';
import { PAGE_STARTED_EVENT } from '@marketplace/shared/platform';

// When the page is the app's (issue 37: a rendered page's script starts after its first paint).
// Until then the page's boot script holds a press on a button or a form sent, and does it again
// once told (src/boot). The root's first commit is not enough: React hydrates
// each Suspense boundary, a slot's content among them, in a pass after the root's, and a press on
// a part not yet hydrated gets the browser's default (a log-in form sent by the browser itself,
// its password in the address). So the page is the app's once its root has committed and each
// slot its server rendered has too; a slot that never settles (one that fell to its fallback)
// holds nothing for more than SETTLE_LIMIT_MS after the root.

/** How long after the root's commit the page is told at the latest. */
export const SETTLE_LIMIT_MS = 3_000;

const waitingFor = new Set<string>();
let rootCommitted = false;
let told = false;
let limit: ReturnType<typeof setTimeout> | undefined;

function tell(): void {
  if (told) return;
  told = true;
  clearTimeout(limit);
  document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
}

// In a task of its own: the presses done again run outside React's commit.
const tellIfSettled = () => {
  if (rootCommitted && waitingFor.size === 0) setTimeout(tell, 0);
};

/** The slots (`remote/Module`) the page's server rendered, which the page hydrates. */
export function awaitSlots(ids: Iterable<string>): void {
  for (const id of ids) waitingFor.add(id);
}

/** In the root, once: its first commit. */
export function useRootCommitted(): void {
  useEffect(() => {
    if (rootCommitted) return;
    rootCommitted = true;
    limit = setTimeout(tell, SETTLE_LIMIT_MS);
    tellIfSettled();
  }, []);
}

/** Inside a slot's Suspense boundary, beside its content: that slot's commit. */
export function SlotSettled({ id }: { id: string }): null {
  useEffect(() => {
    waitingFor.delete(id);
    tellIfSettled();
  }, [id]);
  return null;
}

/** For tests: a page not started. */
export function resetPageStart(): void {
  clearTimeout(limit);
  waitingFor.clear();
  rootCommitted = false;
  told = false;
}
