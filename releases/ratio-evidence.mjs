// The sample-ratio e-process: whether the canary's share of page loads is far below its share of
// browsers (its pages crash before they report, or never load it).

/** @typedef {import('./blocks.mjs').Block} Block */

/**
 * The shares, as a fraction of the expected one, that the sample-ratio test bets on: "far below"
 * means under about 80 % of it (pages that crash before they report, or never load the canary).
 */
const RATIO_GRID = Array.from({ length: 12 }, (_, i) => 0.05 + (0.55 * i) / 11);
/**
 * Evaluations at a share before its blocks count for the sample ratio: a page reports when it is
 * hidden, so for a while after the canary starts or steps up, loads served at the old share are
 * still arriving, and the canary's share looks lower than it is.
 */
const RATIO_SETTLE = 2;

/**
 * The sample-ratio e-process: evidence that the canary's share of page loads is far below its
 * share of browsers. Each load is the canary's with probability share under the null; the
 * alternative, a mixture over RATIO_GRID, gives it share x r / (share x r + 1 - share). A mixture of
 * likelihood-ratio martingales is one, exact for any counts, and the share may change between
 * blocks (the null's probability is the block's own).
 * @param {Block[]} blocks
 */
export function ratioEvidence(blocks) {
  const logs = RATIO_GRID.map(() => 0);
  blocks.forEach((block, k) => {
    const settled = k >= RATIO_SETTLE && blocks.slice(k - RATIO_SETTLE, k).every((b) => b.percent === block.percent);
    const s = block.percent / 100;
    if (!settled || s <= 0 || s >= 1) return;
    RATIO_GRID.forEach((r, i) => {
      const sr = (s * r) / (s * r + 1 - s);
      logs[i] = (logs[i] ?? 0) + block.canary.n * Math.log(sr / s) + block.live.n * Math.log((1 - sr) / (1 - s));
    });
  });
  const top = Math.max(...logs);
  return Math.exp(top) * (logs.reduce((sum, l) => sum + Math.exp(l - top), 0) / logs.length);
}
