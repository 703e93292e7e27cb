import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../constants.js';

/**
 * Whether a media query matches now, updating when it changes. A page rendered on the server
 * renders as if it did not match, and changes after hydration: prefer a CSS media query for
 * layout (the header does). Kept in the shared API: released header versions before it moved
 * to CSS use useIsMobile, and they run on the shell's copy of this package (a rollback loads them).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** SPEC.md section 9: the mobile layout applies at a width of 768 px or less. */
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;
export const useIsMobile = () => useMediaQuery(MOBILE_QUERY);
