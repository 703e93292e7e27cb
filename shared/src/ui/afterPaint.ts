/** How long a visible page may go without painting before the work runs anyway (a tab hidden meanwhile). */
const LATEST_MS = 1000;

/**
 * Runs `work` once the browser has painted the next frame: what a press starts but the person
 * does not see at once (a request, a focus ring, an address) stays out of the frame that answers
 * the press, so that frame comes sooner (Interaction to Next Paint). A frame callback runs just
 * before the paint; a task queued from it runs just after. A hidden page paints no frames: the
 * work runs in a task of its own then, and at the latest after LATEST_MS. Returns a cancel.
 */
export function afterPaint(work: () => void): () => void {
  let done = false;
  let frame: number | null = null;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    work();
  };
  const cancel = () => {
    done = true;
    if (frame !== null) cancelAnimationFrame(frame);
    timers.forEach(clearTimeout);
  };
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    timers.push(setTimeout(run, 0));
  } else {
    frame = requestAnimationFrame(() => {
      frame = null;
      timers.push(setTimeout(run, 0));
    });
    timers.push(setTimeout(run, LATEST_MS));
  }
  return cancel;
}
