/** Types of rum-token.mjs for TypeScript callers (the API, the page server's and the shell's tests). */
export interface RumTokenClaims {
  /** The page load's id, drawn by the page server. */
  load: string;
  /** Per remote, the versions the page may report. */
  versions: Record<string, string[]>;
  /** The cohort the request carried, or null when it had none yet. */
  cohort: number | null;
  /** The browser's id (BROWSER_ID_PATTERN); absent from tokens signed before there was one. */
  browser?: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}
export type RumTokenProblem = 'malformed' | 'signature' | 'expired';

export const RUM_TOKEN_PATH: string;
export const BROWSER_ID_PATTERN: RegExp;
export function newBrowserId(): string;
export const RUM_TOKEN_TTL_S: number;
export const RUM_TOKEN_KEY_MIN_CHARS: number;
export const RUM_TOKEN_KEY_FILE: string;
export function checkRumTokenKey(key: string): string;
export function signRumToken(
  key: string,
  claims: Omit<RumTokenClaims, 'exp'>,
  options?: { now?: number; ttlS?: number },
): string;
export function verifyRumToken(
  key: string,
  token: string,
  now?: number,
): { claims: RumTokenClaims } | { problem: RumTokenProblem };
export function readOrCreateRumTokenKey(dir: string): string;
