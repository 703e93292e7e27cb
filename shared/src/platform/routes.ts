// Route matching as react-router ranks routes, over any table of paths: the platform table's
// pages (pageAt), and the page's boot script, which reads the same table from platform.json.
// Nothing imported, so a bundle that only matches paths carries nothing else.

/** A path's segments, as the router splits it (a trailing slash ignored: `/events/` is `/events`). */
export const pathSegments = (path: string) =>
  path === '/' ? [] : path.replace(/^\//, '').replace(/\/$/, '').split('/');

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

/** The route of `routes` a location shows, most specific first; undefined for none. */
export function routeMatcher<R extends { path: string }>(routes: readonly R[]): (pathname: string) => R | undefined {
  const ranked = routes
    .map((route) => ({ route, pattern: pathSegments(route.path) }))
    .sort((a, b) => score(b.pattern) - score(a.pattern));
  return (pathname) => {
    const path = pathSegments(pathname);
    return ranked.find(({ pattern }) => matches(pattern, path))?.route;
  };
}
