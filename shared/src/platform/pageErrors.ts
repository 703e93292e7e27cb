/**
 * The page's errors on their way to its real-user beacon (issue 39, item 1): every failure of the
 * page goes through one queue, from the start of main.js, whatever catches it: the window (an
 * uncaught error, an unhandled rejection), React's root (the root error handlers of
 * shared/src/app/rootErrors.ts: an error a boundary caught, one no boundary caught, one React
 * recovered from by rendering again), or the page's server (a remote that threw while it rendered
 * this page). The shell's telemetry takes the queue when it starts: what came before waits for it,
 * so an error before telemetry starts is sent too. Nothing here attributes or sends: that is the
 * telemetry's, which knows where each remote's files are.
 *
 * The queue is one object on the page's global, not a module's: main.js, the shared package's
 * singleton and a remote's own copy of this module all report into the same one.
 */
import type { RemoteName } from './remotes.js';

/** How an error reached the queue. */
export type PageErrorReport =
  /** An uncaught error at the window: `error` is what was thrown (absent for a script's muted "Script error."). */
  | { kind: 'error'; error: unknown; message?: string; filename?: string }
  /** A promise rejected with nobody handling it. */
  | { kind: 'rejection'; error: unknown }
  /**
   * From a React root: an error boundary caught it (`boundary`, the boundary's instance), no
   * boundary did (the root is gone), or React recovered from it by rendering again (a render's
   * first attempt threw and the retry did not; hydration switched to rendering a part afresh).
   */
  | { kind: 'caught' | 'uncaught' | 'recoverable'; error: unknown; componentStack?: string; boundary?: unknown }
  /** The page's server: `remote` threw while the server rendered this page (page-server, server.tsx). */
  | { kind: 'server'; remote: RemoteName; message: string };

/** The page global the queue lives on. */
export const PAGE_ERRORS_GLOBAL = '__platformPageErrors';

/** Reports waiting past this are dropped: a page throwing in a loop before telemetry starts keeps its first ones. */
export const PAGE_ERRORS_WAITING_MAX = 100;

interface PageErrors {
  waiting: PageErrorReport[];
  /** Telemetry's receiver, once it has taken the queue. */
  receiver: ((report: PageErrorReport) => void) | null;
  /** Errors already reported: the same thrown object reaches the queue once (a root's uncaught error is also re-reported to the window). */
  seen: WeakSet<object>;
  /** Whether the window's listeners are on (listenForPageErrors). */
  listening: boolean;
}

function pageErrors(): PageErrors {
  const global = globalThis as unknown as Record<typeof PAGE_ERRORS_GLOBAL, PageErrors | undefined>;
  return (global[PAGE_ERRORS_GLOBAL] ??= { waiting: [], receiver: null, seen: new WeakSet(), listening: false });
}

/** Hands a report to telemetry, or keeps it until telemetry takes the queue. A thrown object already reported is not reported again. */
export function reportPageError(report: PageErrorReport): void {
  const errors = pageErrors();
  const thrown = 'error' in report ? report.error : undefined;
  if (typeof thrown === 'object' && thrown !== null) {
    if (errors.seen.has(thrown)) return;
    errors.seen.add(thrown);
  }
  if (errors.receiver) errors.receiver(report);
  else if (errors.waiting.length < PAGE_ERRORS_WAITING_MAX) errors.waiting.push(report);
}

/**
 * Takes the queue: every report waiting goes to `receiver` now, later ones as they come. Returns
 * the function that lets go of it (reports wait again).
 */
export function receivePageErrors(receiver: (report: PageErrorReport) => void): () => void {
  const errors = pageErrors();
  errors.receiver = receiver;
  for (const report of errors.waiting.splice(0)) receiver(report);
  return () => {
    if (errors.receiver === receiver) errors.receiver = null;
  };
}

/**
 * Puts the window's uncaught errors and unhandled rejections into the queue, once per page (a
 * second call does nothing). main.js calls it first thing (shell/src/index.ts).
 */
export function listenForPageErrors(target: Window = window): void {
  const errors = pageErrors();
  if (errors.listening) return;
  errors.listening = true;
  target.addEventListener('error', (event) =>
    reportPageError({ kind: 'error', error: event.error, message: event.message, filename: event.filename }),
  );
  target.addEventListener('unhandledrejection', (event) =>
    reportPageError({ kind: 'rejection', error: event.reason as unknown }),
  );
}

/** Forgets what waits and who receives it (tests: each starts as a fresh page; the window's listeners stay). */
export function resetPageErrors(): void {
  const errors = pageErrors();
  errors.waiting.length = 0;
  errors.receiver = null;
  errors.seen = new WeakSet();
}
