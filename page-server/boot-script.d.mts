/** The shell page's inline script that hints its remotes' files (see boot-script.mjs). */
export function bootScript(): string;
/** The policy's source for it: `'sha256-…'`. */
export function bootScriptSource(): string;
export const START_AT_LATEST_MS: number;
