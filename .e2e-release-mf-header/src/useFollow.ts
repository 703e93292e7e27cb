import { safeHref, useNavigate } from '@marketplace/shared';

/** Leaving the app for another site; an object so tests can watch it (jsdom cannot navigate). */
export const leaveApp = {
  to(href: string) {
    window.location.assign(href);
  },
};

/**
 * Follows a link that came from the server: inside the app when site-relative, as a page load when
 * http(s); anything else (javascript:, data:, ...) is ignored (issue 4, "Safety").
 */
export function useFollow() {
  const navigate = useNavigate();
  /** Returns whether the link was followed. */
  return (url: string | null): boolean => {
    const href = safeHref(url);
    if (href?.startsWith('/')) navigate(href);
    else if (href) leaveApp.to(href);
    return href !== null;
  };
}
