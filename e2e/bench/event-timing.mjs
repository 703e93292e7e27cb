// Interaction to Next Paint read as browsers and web-vitals read it: Event Timing entries
// (durationThreshold 16, and the first input) grouped by interactionId, the longest entry's
// duration; a page's INP is its worst interaction (one in 50 left out).
import { PAGE_STARTED_EVENT } from '@marketplace/shared/node/handover';

/**
 * @typedef {{ id: number, name: string, target: string, start: number, latency: number,
 *   inputDelay: number, processing: number, presentation: number }} Interaction
 * @typedef {{ inp: number, interactions: Interaction[], longTasks: [number, number][] }} Run
 */

/**
 * Runs in the page before any of its scripts: the Event Timing entries by interaction, the long
 * tasks, and when the app said it has the page.
 */
export const probe = `(() => {
  const b = (window.__inp = { started: null, events: [], longTasks: [], lastLongTaskEnd: 0, observer: null });
  document.addEventListener(${JSON.stringify(PAGE_STARTED_EVENT)}, () => { b.started = performance.now(); });
  const describe = (node) => node instanceof Element
    ? node.tagName.toLowerCase() + (node.getAttribute('aria-label') ? '[' + node.getAttribute('aria-label') + ']' : node.id ? '#' + node.id : '')
    : '';
  const take = (list) => {
    for (const e of list) {
      if (!e.interactionId) continue;
      b.events.push({ id: e.interactionId, name: e.name, target: describe(e.target), start: e.startTime,
        duration: e.duration, processingStart: e.processingStart, processingEnd: e.processingEnd });
    }
  };
  b.observer = new PerformanceObserver((l) => take(l.getEntries()));
  b.observer.observe({ type: 'event', durationThreshold: 16, buffered: true });
  b.take = () => take(b.observer.takeRecords());
  new PerformanceObserver((l) => take(l.getEntries())).observe({ type: 'first-input', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      b.longTasks.push([e.startTime, e.duration]);
      b.lastLongTaskEnd = Math.max(b.lastLongTaskEnd, e.startTime + e.duration);
    }
  }).observe({ type: 'longtask', buffered: true });
})();`;

/**
 * The interactions from the page's entries after `since`: per interactionId, the longest entry's
 * duration (the latency, from the input to the next paint), split as web-vitals' attribution
 * splits it over the entries that paint in the same frame as that one (a click's pointerdown,
 * pointerup and click; not a key's keyup, a frame later): to the first handler, to the last
 * handler's end, to the paint.
 * @param {{ id: number, name: string, target: string, start: number, duration: number,
 *   processingStart: number, processingEnd: number }[]} events
 * @param {number} since
 * @returns {Interaction[]}
 */
export function interactions(events, since) {
  /** @type {Map<number, (typeof events)>} */
  const byId = new Map();
  for (const e of events) if (e.start >= since) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  return [...byId.values()]
    .map((entries) => {
      const longest = entries.reduce((a, b) => (b.duration > a.duration ? b : a));
      const paint = longest.start + longest.duration;
      // Durations are rounded to 8 ms: entries ending within that painted in the same frame.
      const frame = entries.filter((e) => Math.abs(e.start + e.duration - paint) <= 8);
      const start = Math.min(...frame.map((e) => e.start));
      const first = Math.min(...frame.map((e) => e.processingStart));
      const end = Math.max(...frame.map((e) => e.processingEnd));
      return {
        id: longest.id,
        name: longest.name,
        target: longest.target,
        start,
        latency: longest.duration,
        inputDelay: first - start,
        processing: end - first,
        presentation: paint - end,
      };
    })
    .sort((a, b) => a.start - b.start);
}

/**
 * A page's INP from its interactions' latencies as web-vitals computes it: the worst, leaving
 * out one for every 50 interactions (the 98th percentile of a long visit). 0 when none was slow
 * enough to be reported (all under 16 ms).
 * @param {number[]} latencies
 */
export function inpOf(latencies) {
  const sorted = [...latencies].sort((a, b) => b - a);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(Math.floor(sorted.length / 50), sorted.length - 1)];
}
