import { useEffect } from 'react';

let locks = 0;
let saved = '';

/** Locks page scrolling while any caller is mounted and active; the last one restores it. */
export function useScrollLock(active = true): void {
  useEffect(() => {
    if (!active) return;
    if (locks++ === 0) {
      saved = document.body.style.overflow;
      document.body.style.overflow = 'hidden';
    }
    return () => {
      if (--locks === 0) document.body.style.overflow = saved;
    };
  }, [active]);
}
