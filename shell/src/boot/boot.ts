// The one inline script of the shell's page (built by the build preset into the page, allowed by
// its hash in the page's policy: no 'unsafe-inline'). While the page is still being parsed it adds
// preload hints for the header's and the route's remote's files, so they download next to main.js
// rather than after it. A page that arrived with its content (src/server/document.ts) carries
// main.js unstarted: this starts it, with the hints, once the page has painted, and until the app
// has taken the page over holds what the visitor presses (presses.ts). It only hints, starts and
// holds: main.js loads the remotes (src/remotes/federation.ts).
import { AFTER_PAINT_SCRIPT_TYPE } from '@marketplace/shared/platform';
import { hint, remoteFiles } from './hints.js';
import { afterPaint, whenPainted } from './paint.js';
import { holdPresses } from './presses.js';

/** The values of `attribute` on the page's scripts waiting for its paint. */
const waiting = (attribute: string): string[] =>
  Array.from(document.querySelectorAll(`script[type="${AFTER_PAINT_SCRIPT_TYPE}"][${attribute}]`), (placeholder) =>
    placeholder.getAttribute(attribute),
  ).filter((value): value is string => value !== null);

export function boot(): void {
  // A rendered page's scripts to start after its paint, and the shell's chunks they load at once.
  const later = waiting('data-src');
  const laterHints = waiting('data-hint');
  const files = remoteFiles();
  // A page waiting for its script: each hint at once (the shell's chunks are hinted by the page itself).
  if (later.length === 0) return files.forEach((href) => hint(href, false));
  // A page that arrived with its content: main.js, the shell's chunks and the remotes' download at
  // low priority once its first content is on the screen (its pictures first on a slow line), and
  // main.js runs once its pictures are too.
  whenPainted(() => [...later, ...laterHints, ...files].forEach((href) => hint(href, true)));
  const release = holdPresses();
  afterPaint(() => {
    for (const src of later) {
      const script = document.createElement('script');
      script.src = src;
      // Run in the page's order, as the deferred scripts they stand for would.
      script.async = false;
      // No app is coming: presses are the browser's again, and the held ones are dropped.
      script.onerror = release;
      document.head.appendChild(script);
    }
  });
}
