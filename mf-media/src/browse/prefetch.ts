import { useEffect, useRef } from 'react';
import { LINK_PREFETCH_MARGIN_PX } from '@marketplace/shared';

/**
 * Runs `prefetch` once, when the element comes within 200 px of the viewport (SPEC.md section 9),
 * so the page behind a link is usually loaded by the time it is clicked.
 */
export function usePrefetchWhenNear<T extends Element>(prefetch: () => void) {
  const ref = useRef<T>(null);
  const latest = useRef(prefetch);
  latest.current = prefetch;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          latest.current();
        }
      },
      { rootMargin: `${LINK_PREFETCH_MARGIN_PX}px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return ref;
}
