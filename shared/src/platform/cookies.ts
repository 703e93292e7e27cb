/**
 * One cookie's value in a Cookie header (or `document.cookie`), or null when it has none. Here,
 * not in the shared package's cookies.ts, because main.js reads the canary cohort with it before
 * the shared singletons are negotiated (shell/src/remotes/discovery.ts).
 */
export function cookieIn(header: string, name: string): string | null {
  return new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header)?.[1] ?? null;
}
