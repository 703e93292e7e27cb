import type { RootOptions } from 'react-dom/client';
import { messageOf } from '../../node/errors.mjs';
import { reportPageError } from '../platform/pageErrors.js';

/**
 * A recoverable error while hydrating. A part the server could not finish (#419: a remote that
 * threw or ran out of time there) or that threw while hydrating here (#422: a remote's own
 * failure, rendered afresh) is rendered here instead, as designed: a warning. #520: a render's
 * first attempt threw and React's second, synchronous attempt did not. Anything else (HTML that
 * does not match what the browser renders) is an error worth a test's failure. React's
 * production builds name them by number only.
 */
const PART_RENDERED_HERE =
  /server could not finish this Suspense boundary|error while hydrating this Suspense boundary|React error #(419|422)\b/i;
const RENDERED_AGAIN = /error during concurrent rendering|React error #520\b/i;

/**
 * The one handler of every React root's errors (mountApp, hydrated or rendered here), so no
 * failure is left to React's defaults, which count it nowhere: each goes into the page's error
 * queue (platform/pageErrors.ts) with its component stack, for the beacon to attribute to the
 * remote it belongs to, and is logged.
 *
 * - caught: an error boundary caught it and shows its fallback; the boundary logs it (a slot's
 *   says which remote failed), so nothing more is logged here.
 * - uncaught: no boundary caught it and the root is gone; it is also reported to the window as
 *   React's default does (the console's "Uncaught", a test's or the smoke load's page error), and
 *   the queue takes the same error once.
 * - recoverable: React rendered again and the page is whole, yet something failed (React wraps the
 *   original in `cause`): a part rendered here instead of hydrated (a warning, as before), a render
 *   that threw once, or HTML that did not match (an error, "[hydrate]").
 */
export const rootErrorHandlers = {
  onCaughtError(error, { componentStack, errorBoundary }) {
    reportPageError({ kind: 'caught', error, componentStack, boundary: errorBoundary });
  },
  onUncaughtError(error, { componentStack }) {
    reportPageError({ kind: 'uncaught', error, componentStack });
    if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
    else console.error('[render] uncaught', error);
  },
  onRecoverableError(error, { componentStack }) {
    reportPageError({ kind: 'recoverable', error, componentStack });
    const message = messageOf(error);
    if (PART_RENDERED_HERE.test(message)) console.warn(`[hydrate] a part is rendered here, not hydrated: ${message}`);
    else if (RENDERED_AGAIN.test(message)) console.error('[render] a render threw; React rendered it again', error);
    else console.error('[hydrate]', error);
  },
} satisfies Pick<RootOptions, 'onCaughtError' | 'onUncaughtError' | 'onRecoverableError'>;
