import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '@marketplace/shared/errors';

/** How long a removed file can be brought back before its removal is sent. */
export const UNDO_MS = 6000;

export interface Removal {
  targetId: number;
  name: string;
  /** Sent to the API: no longer undone, the row stays hidden until the order is read again. */
  sent: boolean;
}

/**
 * Removal with Undo: a removed file is hidden at once and its removal sent UNDO_MS later, unless
 * undone. Leaving the page (its route, or the tab: pagehide) sends the waiting removals at once.
 * `send` removes a file and reads the order again; `leaving` says the page is going (the request
 * must outlive it). A refused removal shows the file again, with why.
 */
export function useUndoableRemoval(send: (targetId: number, leaving: boolean) => Promise<unknown>) {
  const [removals, setRemovals] = useState<Removal[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  // The removals waiting for their time: each one's timer and name.
  const waiting = useRef(new Map<number, { timer: ReturnType<typeof setTimeout>; name: string }>());
  // The latest `send` (a new one each render), for the timers and the page's leaving.
  const sendLatest = useRef(send);
  useEffect(() => {
    sendLatest.current = send;
  });

  const drop = (targetId: number) => setRemovals((now) => now.filter((r) => r.targetId !== targetId));

  // Only refs and state setters: the same function for the page's life (the timers and pagehide hold it).
  const commit = useCallback((targetId: number, leaving: boolean) => {
    const entry = waiting.current.get(targetId);
    if (!entry) return;
    clearTimeout(entry.timer);
    waiting.current.delete(targetId);
    setRemovals((now) => now.map((r) => (r.targetId === targetId ? { ...r, sent: true } : r)));
    const settle = () => setRemovals((now) => now.filter((r) => r.targetId !== targetId));
    sendLatest.current(targetId, leaving).then(settle, (error: unknown) => {
      settle();
      setFailure(`${entry.name} could not be removed: ${messageOf(error, 'try again')}`);
    });
  }, []);

  useEffect(() => {
    const pending = waiting.current;
    const leave = () => [...pending.keys()].forEach((targetId) => commit(targetId, true));
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [commit]);

  return {
    removals,
    failure,
    remove(targetId: number, name: string) {
      if (waiting.current.has(targetId)) return;
      setFailure(null);
      setRemovals((now) => [...now.filter((r) => r.targetId !== targetId), { targetId, name, sent: false }]);
      waiting.current.set(targetId, { timer: setTimeout(() => commit(targetId, false), UNDO_MS), name });
    },
    undo(targetId: number) {
      const entry = waiting.current.get(targetId);
      if (!entry) return;
      clearTimeout(entry.timer);
      waiting.current.delete(targetId);
      drop(targetId);
    },
  };
}
