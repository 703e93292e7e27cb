import { useEffect, type ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { rootErrorHandlers } from '../app/rootErrors.js';

/** The elements whose styles this page has made already (or is about to). */
const prepared = new WeakSet<ReactElement>();

/** How long the page may stay busy before the styles are made anyway. */
const IDLE_TIMEOUT_MS = 3000;

/**
 * Makes the styles of `element` before a press first shows it: styled-components makes a
 * component's class (its CSS parsed, its rules inserted into the page's sheet, the page's styles
 * worked out again) the first time it renders, which would otherwise fall in the press that opens a
 * dialog or a menu and hold back its first frame. Once the browser is idle after the caller
 * mounts, `element` is rendered off the page and unmounted; the styles stay.
 *
 * `element` is a constant (made once, outside any component), of styled components with the
 * props the real ones get, and needs no context (no router, no query client). Where the browser
 * offers no idle callback (Safari, jsdom), nothing is made in advance.
 */
export function usePreparedStyles(element: ReactElement): void {
  useEffect(() => {
    if (prepared.has(element) || typeof window.requestIdleCallback !== 'function') return;
    prepared.add(element);
    // Made even if the caller unmounts meanwhile: the next one to mount needs them all the same.
    window.requestIdleCallback(
      () => {
        // With the page's own error handlers: React hands a commit the recoverable errors of a
        // render it interrupted, so a flush here while a root hydrates can be given that root's
        // (a remote's part rendered afresh, #422), which React's default would throw at the window.
        const root = createRoot(document.createElement('div'), rootErrorHandlers);
        flushSync(() => root.render(element));
        root.unmount();
      },
      { timeout: IDLE_TIMEOUT_MS },
    );
  }, [element]);
}
