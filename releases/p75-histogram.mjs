// A vital's values on one side of a simulated canary, kept so that its p75 costs little at every
// interval.

// Vitals are kept as histograms of standard-normal scores (bins of 0.01 over -5..5), so a side's
// p75 is found by moving a pointer rather than sorting every value at every interval; the value is
// the side's median times exp(spread x score), the nearest-rank p75 the API computes to 0.5 %.
const BINS = 1000;
const Z_LOW = -5;
const Z_STEP = 0.01;
/** Uniform -> bin of a standard normal score, by table (2^16 steps). */
export const BIN_OF = (() => {
  const table = new Uint16Array(65536);
  // The inverse normal by bisection on its CDF (erf by Abramowitz-Stegun 7.1.26, to 1.5e-7).
  const cdf = (/** @type {number} */ z) => {
    const t = 1 / (1 + 0.3275911 * Math.abs(z / Math.SQRT2));
    const y =
      1 -
      ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
        t *
        Math.exp(-(z * z) / 2);
    return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
  };
  for (let i = 0; i < table.length; i++) {
    const u = (i + 0.5) / table.length;
    let lo = -8;
    let hi = 8;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) < u) lo = mid;
      else hi = mid;
    }
    table[i] = Math.min(BINS - 1, Math.max(0, Math.floor((lo - Z_LOW) / Z_STEP)));
  }
  return table;
})();

/** A histogram of one vital on one side, with its nearest-rank p75 kept up to date. */
export function quantileTracker() {
  const counts = new Uint32Array(BINS);
  let n = 0;
  let at = BINS / 2;
  let below = 0;
  return {
    /** @param {number} bin */
    add(bin) {
      counts[bin] = (counts[bin] ?? 0) + 1;
      n += 1;
      if (bin < at) below += 1;
    },
    get count() {
      return n;
    },
    /** The p75's score (bin centre), or null without values. */
    p75() {
      if (n === 0) return null;
      const rank = Math.ceil(0.75 * n);
      while (below + (counts[at] ?? 0) < rank) below += counts[at++] ?? 0;
      while (below >= rank) below -= counts[--at] ?? 0;
      return Z_LOW + (at + 0.5) * Z_STEP;
    },
  };
}
