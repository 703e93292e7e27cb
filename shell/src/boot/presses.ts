// Until the app has taken the page over (it says so: src/remotes/pageStart.ts), a press on one of
// its buttons and a form sent are held, and done again then, once each however often pressed:
// neither is lost, and a form never goes out by the browser's own means (a log-in's password in
// an address). Held, a press reaches nothing else of the page (React's listeners on a part it has
// hydrated meanwhile would handle it a second time). A link is left to the browser: without
// script it leads to its page, which its server renders.
import { PAGE_STARTED_EVENT } from '@marketplace/shared/platform';

type Field = HTMLInputElement | HTMLTextAreaElement;

/** Holds presses and notes typing from now; returns what lets them go without doing them again. */
export function holdPresses(): () => void {
  const held: [Element, HTMLElement | null][] = [];
  // The fields typed into until then, each with its last text: it is on the screen, but the app's
  // state, hydrated from the server's empty field, does not have it (and a render of the app's
  // meanwhile puts the state's text back on the screen).
  const typed = new Map<Field, string>();

  const hold = (event: Event) => {
    const element = event.target instanceof Element ? event.target : null;
    const target = event.type === 'submit' ? element : element?.closest('button, [role="button"]');
    if (!target || (event.type === 'click' && target.closest('a[href]'))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.some(([pressed]) => pressed === target)) held.push([target, (event as SubmitEvent).submitter ?? null]);
  };
  const noteTyped = (event: Event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    if (/^(checkbox|radio|file)$/.test(field.type)) return;
    typed.set(field, field.value);
  };
  const release = () => {
    document.removeEventListener('click', hold, true);
    document.removeEventListener('submit', hold, true);
    document.removeEventListener('input', noteTyped, true);
    return held.splice(0);
  };
  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);
  document.addEventListener('input', noteTyped, true);

  document.addEventListener(
    PAGE_STARTED_EVENT,
    () => {
      const presses = release();
      handTyped(typed);
      for (const [target, submitter] of presses) {
        // One the app's first render replaced is gone with what it was pressed on.
        if (!target.isConnected) continue;
        try {
          if (target instanceof HTMLFormElement)
            target.requestSubmit(submitter && (submitter as HTMLButtonElement).form === target ? submitter : null);
          else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
        } catch {
          // One that cannot be done again does not keep the others from it.
        }
      }
    },
    { once: true },
  );
  return () => void release();
}

/**
 * Each field typed into tells the app its text as if typed now. The text goes to the page's value
 * first, through the property the app (React) watches, so that the app sees it as a change.
 */
function handTyped(fields: Map<Field, string>): void {
  for (const [field, text] of fields) {
    if (!field.isConnected || text === field.defaultValue) continue;
    try {
      // Where the visitor left the caret, unless a render put other text there meanwhile.
      const caret =
        document.activeElement === field && field.value === text
          ? { start: field.selectionStart, end: field.selectionEnd }
          : null;
      const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      field.value = field.defaultValue;
      Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, text);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      if (caret && caret.start !== null) field.setSelectionRange(caret.start, caret.end);
    } catch {
      // One that cannot be handed keeps neither the others nor the presses from it.
    }
  }
}
