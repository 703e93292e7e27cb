// The figures of a canary as its tests read them: the cumulative figures of every evaluation
// turned into blocks, what each side added between two evaluations.

/**
 * @typedef {import('./figures.mjs').Sample} Sample
 * One evaluation: both sides' figures since the canary started (cumulative) and the canary's share
 * of browsers, in percent, while they were gathered (the share before any step that evaluation decided).
 * @typedef {{ percent: number, canary: Sample, live: Sample }} Look
 */

/**
 * A block: what was added between two evaluations, per side, at one share.
 * @typedef {{ percent: number, canary: { n: number, x: number }, live: { n: number, x: number } }} Block
 */

/**
 * The figures as blocks. Cumulative figures can go backwards (the API's window, a restarted API):
 * a block never has fewer than zero loads. A page load's errors can arrive after the load was
 * first counted (it sends a beacon each time it is hidden): errors beyond a block's new loads are
 * carried to the next block rather than making a block with more failed loads than loads.
 * @param {Look[]} looks @returns {Block[]}
 */
export function blocksOf(looks) {
  /** @type {Block[]} */
  const blocks = [];
  const side = () => ({ loads: 0, errorLoads: 0, carry: 0 });
  const seen = { canary: side(), live: side() };
  for (const look of looks) {
    /** @param {'canary' | 'live'} name */
    const add = (name) => {
      const before = seen[name];
      const now = look[name];
      const n = Math.max(0, now.loads - before.loads);
      const pending = Math.max(0, now.errorLoads - before.errorLoads) + before.carry;
      const x = Math.min(pending, n);
      seen[name] = {
        loads: Math.max(before.loads, now.loads),
        errorLoads: Math.max(before.errorLoads, now.errorLoads),
        carry: pending - x,
      };
      return { n, x };
    };
    blocks.push({ percent: look.percent, canary: add('canary'), live: add('live') });
  }
  return blocks;
}
