import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { wrap } from './media.js';

/** How far (px) a finger or pointer travels sideways on the item for a swipe to move on. */
export const SWIPE_THRESHOLD = 50;

/**
 * Which item the viewer shows: a step either way with wrap-around, a sideways swipe on the item,
 * and each change told to `onIndexChange` (the page's address per photo).
 */
export function useViewerNavigation(startIndex: number, total: number, onIndexChange?: (index: number) => void) {
  const [index, setIndex] = useState(() => wrap(startIndex, total));
  const shown = wrap(index, total);
  const step = (by: 1 | -1) => setIndex((i) => wrap(i + by, total));

  const reported = useRef(shown);
  const latestOnIndexChange = useRef(onIndexChange);
  latestOnIndexChange.current = onIndexChange;
  useEffect(() => {
    if (reported.current === shown) return;
    reported.current = shown;
    latestOnIndexChange.current?.(shown);
  }, [shown]);

  // Where a swipe started: a pointer (finger, pen or mouse) down on the item.
  const swipe = useRef<{ id: number; x: number; y: number } | null>(null);
  const swipeHandlers = {
    onPointerDown: (e: ReactPointerEvent) => {
      if (e.isPrimary !== false) swipe.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
    },
    onPointerUp: (e: ReactPointerEvent) => {
      const start = swipe.current;
      swipe.current = null;
      if (!start || start.id !== e.pointerId) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (Math.abs(dx) < SWIPE_THRESHOLD || Math.abs(dx) <= Math.abs(dy)) return;
      // Leftwards brings the next item in, as a finger pushes the page aside.
      step(dx < 0 ? 1 : -1);
    },
    onPointerCancel: () => {
      swipe.current = null;
    },
  };

  return { shown, step, swipeHandlers };
}
