// The one way the platform turns a thrown value into words (a log line, a form's alert, a job's
// last error): the browser (shell, remotes, shared), the API and the Node scripts (page server,
// releases, scripts) import it. Plain JavaScript, so Node runs it without a TypeScript loader.

/**
 * What `error` says: its message when it is an Error, else `fallback` when one is given (a form's
 * own words rather than whatever was thrown), else the thrown value as a string.
 * @param {unknown} error
 * @param {string} [fallback]
 * @returns {string}
 */
export function messageOf(error, fallback) {
  if (error instanceof Error) return error.message;
  return fallback === undefined ? String(error) : fallback;
}
