// The interval stated beside every simulated rate: how far the rate of the runs may be from the
// true one.

/** The 95 % Clopper-Pearson interval of k successes in n (by bisection on the binomial tails). @param {number} k @param {number} n @returns {[number, number]} */
export function binomialInterval(k, n) {
  const logChoose = (/** @type {number} */ m) => {
    let s = 0;
    for (let i = 1; i <= m; i++) s += Math.log((n - m + i) / i);
    return s;
  };
  const tail = (/** @type {number} */ p, /** @type {number} */ from, /** @type {number} */ to) => {
    let s = 0;
    for (let i = from; i <= to; i++) s += Math.exp(logChoose(i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
    return s;
  };
  const solve = (/** @type {(p: number) => boolean} */ above) => {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (above(mid)) hi = mid;
      else lo = mid;
    }
    return (lo + hi) / 2;
  };
  const low = k === 0 ? 0 : solve((p) => tail(p, k, n) > 0.025);
  const high = k === n ? 1 : solve((p) => tail(p, 0, k) < 0.025);
  return [low, high];
}
