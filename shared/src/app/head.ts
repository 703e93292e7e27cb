import { createContext, useContext, useLayoutEffect } from 'react';
import { createStore, useStore } from 'zustand';
import { pageAt } from '../platform/pageAt.js';
import { useLocation } from '../router.js';

/** The product's name in every page's title: `Summer Jazz Night · EventMedia`. */
export const SITE_NAME = 'EventMedia';

/** What a page says it is: its title (without the site's name) and its meta description. */
export interface PageHead {
  title: string;
  description: string;
  /** The picture a shared link shows (an event's cover): its URL as the page has it. */
  image?: string;
}

/** The head of a location with no page, or whose thing (an event, a profile, an order) does not exist. */
export const NOT_FOUND_HEAD: PageHead = {
  title: 'Page not found',
  description: 'There is nothing at this address. Browse the events or go to the home page.',
};

/** The tab's text for a page's title. */
export const documentTitle = (title: string) => `${title} · ${SITE_NAME}`;

interface HeadState {
  /** Where the page is, and what the platform table says of it (or "not found"). */
  route: { path: string; head: PageHead } | null;
  /** What the page itself says once its data is there, for the path it was said on. */
  page: { path: string; head: PageHead } | null;
}

/**
 * The document's head for the whole page: the shell writes the route's, a remote's page its
 * own (usePageHead), and the shell writes the winner into the document. One store in the page,
 * because the shared package is a singleton.
 */
export const headStore = createStore<HeadState>()(() => ({ route: null, page: null }));

/** The head that applies now: the page's own, if it was said for the current route. */
export function currentHead(state: HeadState = headStore.getState()): PageHead | null {
  if (!state.route) return null;
  return state.page?.path === state.route.path ? state.page.head : state.route.head;
}

/** The platform table's head for a location: its page's, or "not found" when no page is there. */
export function routeHead(pathname: string): PageHead {
  const page = pageAt(pathname);
  return page ? { title: page.title, description: page.description } : NOT_FOUND_HEAD;
}

/**
 * Given by a page's server around its render: every head a page says while rendering is passed
 * to it (the last one said wins), so the server's HTML carries the page's own title, description
 * and picture, and a page that shows "not found" is answered 404.
 */
export const ServerHeadContext = createContext<((head: PageHead) => void) | null>(null);

/** Whether a head is the "not found" one (an unknown address, event or profile). */
export const isNotFoundHead = (head: PageHead): boolean =>
  head.title === NOT_FOUND_HEAD.title && head.description === NOT_FOUND_HEAD.description;

/** The head that applies now, in React (the shell writes it into the document). */
export const useCurrentHead = () => useStore(headStore, (s) => currentHead(s));

/**
 * A page names what it shows once its data is there ("Summer Jazz Night"), replacing the
 * platform table's generic title for as long as it is mounted at this location. `null` says
 * nothing yet (still loading).
 */
export function usePageHead(head: PageHead | null): void {
  const { pathname } = useLocation();
  const title = head?.title;
  const description = head?.description;
  // A page's server hears it while rendering (effects never run there).
  const tellServer = useContext(ServerHeadContext);
  if (tellServer && head) tellServer(head);
  // A layout effect: the head is said in the same commit as the page's heading appears, before
  // the shell's announcer (which waits for that heading) reads it.
  useLayoutEffect(() => {
    if (title === undefined || description === undefined) return;
    headStore.setState({ page: { path: pathname, head: { title, description } } });
    return () => {
      if (headStore.getState().page?.path === pathname) headStore.setState({ page: null });
    };
  }, [pathname, title, description]);
}

/** A meta description from a longer text (an event's description): at most `max` characters, cut at a word. */
export function summary(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}
