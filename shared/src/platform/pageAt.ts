import { PAGE_LIST, pathSegments as segments } from './pages.js';

/**
 * How specific a route is, as react-router ranks routes: a static segment outweighs a dynamic
 * one, so `/user/login` beats `/user/:profileName`. (The table has neither splats nor optional
 * segments; `pageAt.test.ts` checks every page and the ambiguous paths against react-router.)
 */
const score = (pattern: string[]) =>
  pattern.reduce((sum, part) => sum + (part.startsWith(':') ? 3 : 10), pattern.length);

function matches(pattern: string[], path: string[]): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((part, i) =>
    part.startsWith(':') ? (path[i] ?? '') !== '' : part.toLowerCase() === path[i]?.toLowerCase(),
  );
}

const RANKED = PAGE_LIST.map((page) => ({ page, pattern: segments(page.path) })).sort(
  (a, b) => score(b.pattern) - score(a.pattern),
);

/**
 * The page of the platform table a location shows, ranked as the router ranks routes (so
 * `/user/login` is the login page, not a creator called "login"); undefined for none.
 * No router here: the shell's main.js reads it to preload the route's remote before React loads.
 */
export function pageAt(pathname: string) {
  const path = segments(pathname);
  return RANKED.find(({ pattern }) => matches(pattern, path))?.page;
}
