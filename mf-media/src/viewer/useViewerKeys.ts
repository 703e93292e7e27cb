import { useEffect, useRef, type RefObject } from 'react';

/**
 * The viewer's keys, wherever focus is inside the page while it is open: the arrows step, Escape
 * closes, and Space plays and pauses the video shown.
 */
export function useViewerKeys({
  panel,
  video,
  step,
  onClose,
}: {
  panel: RefObject<HTMLElement | null>;
  video: boolean;
  step: (by: 1 | -1) => void;
  onClose: () => void;
}): void {
  const latest = useRef({ video, step, onClose });
  latest.current = { video, step, onClose };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { video, step, onClose } = latest.current;
      if (e.key === 'ArrowRight') step(1);
      else if (e.key === 'ArrowLeft') step(-1);
      else if (e.key === 'Escape') onClose();
      else if (e.key === ' ' && video) {
        // Space plays and pauses the video instead of pressing the focused button or scrolling.
        e.preventDefault();
        const el = panel.current?.querySelector('video');
        if (el) void (el.paused ? el.play()?.catch(() => undefined) : el.pause());
      } else return;
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [panel]);
}
