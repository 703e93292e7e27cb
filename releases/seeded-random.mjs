// Seeded random draws for the simulation: the same seed gives the same canaries.

/** A seeded generator of uniform numbers in [0, 1) (sfc32: small, fast, passes PractRand). @param {number} seed */
export function generator(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** A standard normal draw (Box-Muller). @param {() => number} random */
export const normal = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** A Poisson draw: exact below 50, normal above (the traffic's spread only needs to be about right). @param {() => number} random @param {number} mean */
export function poisson(random, mean) {
  if (mean >= 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(random)));
  let k = 0;
  for (let p = random(), limit = Math.exp(-mean); p > limit; p *= random()) k += 1;
  return k;
}
