// The platform's one time limit on a promise whose callee takes no AbortSignal (a remote's module
// load, a broker's acknowledgement). A callee that takes a signal is given `AbortSignal.timeout`
// instead, which also stops the work. Plain JavaScript, for the browser, the API and Node alike.

/**
 * `promise`'s outcome, or a rejection with `timeoutError()` once `ms` have passed without one. The
 * work goes on (nothing here can stop it) and its later outcome is ignored; the timer ends as soon
 * as `promise` settles, so it holds nothing up.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {() => Error} timeoutError
 * @returns {Promise<T>}
 */
export function withTimeout(promise, ms, timeoutError) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
