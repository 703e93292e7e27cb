import { matchRoutes } from '../router.js';
import { PAGE_LIST } from './pages.js';

/**
 * The page of the platform table a location shows, ranked as the router ranks routes (so
 * `/user/login` is the login page, not a creator called "login"); undefined for none.
 * Kept apart from the table itself, which the API reads without a router.
 */
export function pageAt(pathname: string) {
  return matchRoutes([...PAGE_LIST], pathname)?.[0]?.route;
}
