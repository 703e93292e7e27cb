// A rendered page's hand-over from its boot script (shell/src/boot) to the app (shell/src/server/document.ts writes the scripts, shell/src/remotes/pageStart.ts
// sends the event): the platform's one copy of the names both sides use, plain values that the
// browser's bundle takes too (shared/src/platform/handover.ts).

/**
 * The type the shell's server gives a rendered page's scripts until the page has painted: a
 * script of an unknown type is neither fetched nor run. The boot script starts each `data-src`
 * once the page's content is on the screen, and hints each `data-hint` then.
 */
export const AFTER_PAINT_SCRIPT_TYPE = 'text/x-after-paint';

/**
 * The event the app sends on `document` once it has taken the page over: the boot script waits
 * for it to do again what a visitor did before (a press on a button, a form sent), and tools that
 * drive the page can too (the e2e suite).
 */
export const PAGE_STARTED_EVENT = 'platform-started';

/**
 * When a rendered page's script starts at the latest (ms from navigation) if its pictures have not
 * all painted by then: 2.5 s, the bound of a largest paint that counts as good.
 */
export const START_AT_LATEST_MS = 2500;
