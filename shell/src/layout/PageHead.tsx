import { useEffect, useRef, useState } from 'react';
import {
  VisuallyHidden,
  currentHead,
  documentTitle,
  headStore,
  routeHead,
  useCurrentHead,
  useLocation,
} from '@marketplace/shared';

/** How long after a navigation the page's main heading may take to arrive (its remote's code and data). */
export const HEADING_WAIT_MS = 10_000;

/** The page's `<meta name="description">`, made once if the document has none. */
function descriptionMeta(): HTMLMetaElement {
  const found = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (found) return found;
  const meta = document.createElement('meta');
  meta.name = 'description';
  document.head.appendChild(meta);
  return meta;
}

/**
 * Keeps the document's title and description on the page shown: the platform table's for the
 * route, then the page's own once it names its thing (an event's name), or "Page not found".
 */
function useDocumentHead(pathname: string): void {
  useEffect(() => {
    headStore.setState({ route: { path: pathname, head: routeHead(pathname) } });
  }, [pathname]);
  const head = useCurrentHead();
  useEffect(() => {
    if (!head) return;
    document.title = documentTitle(head.title);
    descriptionMeta().content = head.description;
  }, [head]);
}

const mainHeading = () => document.querySelector<HTMLElement>('main h1');
const dialogOpen = () => document.querySelector('[role="dialog"]') !== null;

/**
 * After a client navigation to another page (not the first load, not a change of the query
 * string only), once the page's main heading is there: a polite live region says the page's
 * title, and focus moves to that heading, so a screen reader and a keyboard start on the new
 * page. Not while a dialog is open: it keeps the focus it holds.
 */
function useNavigationAnnouncement(pathname: string): string {
  const [announcement, setAnnouncement] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Cleared first, so that a title equal to the last one is still read out.
    setAnnouncement('');
    let done = false;
    const announce = () => {
      const heading = mainHeading();
      if (done || !heading) return;
      done = true;
      observer.disconnect();
      // The page names its thing (usePageHead, a layout effect) in the commit that shows its heading; focus after it paints.
      requestAnimationFrame(() => {
        if (dialogOpen()) return;
        setAnnouncement(currentHead()?.title ?? '');
        heading.tabIndex = -1;
        heading.focus();
      });
    };
    const observer = new MutationObserver(announce);
    observer.observe(document.body, { childList: true, subtree: true });
    const timer = setTimeout(() => {
      done = true;
      observer.disconnect();
    }, HEADING_WAIT_MS);
    // The heading may be there already (a page whose code and data were loaded).
    announce();
    return () => {
      done = true;
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
  return announcement;
}

/** The document's head, and the announcement of each client navigation (a polite live region). */
export function PageHeadAndAnnouncer() {
  const { pathname } = useLocation();
  useDocumentHead(pathname);
  const announcement = useNavigationAnnouncement(pathname);
  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement}
    </VisuallyHidden>
  );
}
