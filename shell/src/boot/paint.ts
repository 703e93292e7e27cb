// When a rendered page has painted: its content is on the screen before its script starts, so
// that on a slow line its pictures do not share the bytes and the main thread with code that
// changes nothing on the screen.
import { START_AT_LATEST_MS } from '@marketplace/shared/platform';

/** Runs `then` once the first paint with content is reported (a paint is on the screen when it is reported). */
export function whenPainted(then: () => void): void {
  if (performance.getEntriesByName('first-contentful-paint').length > 0) return then();
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    then();
  }).observe({ type: 'paint' });
}

/**
 * Runs `start` once the page has painted: the load event (the page's eager pictures are in), the
 * pictures decoded (one decoded off the main thread paints a frame or more after its load), the
 * first paint with content reported, then three frames begun (a frame is on the screen a frame
 * or two after it began). A picture that never arrives, or a tab in the background (it draws no
 * frames), does not keep the page from working: `start` runs at the latest when a largest paint
 * stops counting as good. Once, whichever comes first.
 */
export function afterPaint(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  const frames = (n: number): void => {
    if (n === 0) setTimeout(once, 0);
    else requestAnimationFrame(() => frames(n - 1));
  };
  const painted = () => {
    const shown = Array.from(document.images).filter((img) => img.loading !== 'lazy' && 'decode' in img);
    void Promise.all(shown.map((img) => img.decode().catch(() => undefined))).then(() => whenPainted(() => frames(3)));
  };
  if (document.readyState === 'complete') painted();
  else addEventListener('load', painted);
  // Rounded up: a browser drops a delay's fraction of a millisecond, which would start it early.
  setTimeout(once, Math.max(0, Math.ceil(START_AT_LATEST_MS - performance.now())));
}
