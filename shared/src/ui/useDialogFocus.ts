import { useEffect, type KeyboardEvent, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * Focus for a modal dialog: moves focus in when it opens (to the first control, or `initial`),
 * gives it back to where it was when it closes, and keeps Tab inside. Returns the Tab handler for
 * the dialog's onKeyDown.
 */
export function useDialogFocus(panel: RefObject<HTMLElement | null>, initial?: string) {
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first =
      (initial && panel.current?.querySelector<HTMLElement>(initial)) ||
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => previous?.focus?.();
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
