import { useEffect, type KeyboardEvent, type RefObject } from 'react';
import { afterPaint } from './afterPaint.js';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * Focus for a modal dialog: moves focus in when it opens (to the first control, or `initial`),
 * gives it back to where it was when it closes, and keeps Tab inside. Returns the Tab handler for
 * the dialog's onKeyDown.
 *
 * Focus moves in once the opened dialog has painted: focusing makes the browser work out the
 * page's styles and layout there and then, which the press that opened the dialog would
 * otherwise wait for (on a slow phone, a good part of the time to its first frame). A dialog
 * closed before that gives focus back all the same; focus already put inside (a click) stays.
 */
export function useDialogFocus(panel: RefObject<HTMLElement | null>, initial?: string) {
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const cancel = afterPaint(() => {
      const dialog = panel.current;
      if (!dialog || dialog.contains(document.activeElement)) return;
      const first =
        (initial && dialog.querySelector<HTMLElement>(initial)) || dialog.querySelector<HTMLElement>(FOCUSABLE);
      (first ?? dialog).focus();
    });
    return () => {
      cancel();
      previous?.focus?.();
    };
    // Runs once per opening: the dialog's content changing must not pull focus back.
  }, [panel, initial]);

  return (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
}
