import { PAGE_LIST } from './pages.js';
import { routeMatcher } from './routes.js';

/**
 * The page of the platform table a location shows, ranked as the router ranks routes (so
 * `/user/login` is the login page, not a creator called "login"); undefined for none.
 * No router here: the shell's main.js reads it to preload the route's remote before React loads.
 */
export const pageAt = routeMatcher(PAGE_LIST);
