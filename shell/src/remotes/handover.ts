// The page's hand-over from its boot script (page-server/boot-script.mjs, which carries the same
// names from shared/node/platform.mjs; boot-script.test.ts runs it against these) to the app.

/**
 * The type the shell's server gives a rendered page's scripts until the page has painted: a
 * script of an unknown type is neither fetched nor run, and the boot script starts each from its
 * `data-src` once the page's content is on the screen.
 */
export const AFTER_PAINT_SCRIPT_TYPE = 'text/x-after-paint';

/**
 * The event the app sends on `document` once it has taken the page over (pageStart.ts): the boot
 * script waits for it to do again what a visitor did before (a press on a button, a form sent),
 * and tools that drive the page can too (the e2e suite).
 */
export const PAGE_STARTED = 'platform-started';
