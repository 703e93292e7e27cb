/**
 * How an outbox's runner learns that rows were committed to it: the repository that writes a row
 * notifies once its transaction commits (repositories/sql.ts afterCommit), and the runner of this
 * process listens (live/relay.ts, mail/sender.ts). Rows written by other processes are found by
 * the runners' polls.
 */
export interface OutboxWake {
  /** Calls `listener` after each commit of a row; answers a function that stops it. */
  listen(listener: () => void): () => void;
  notify(): void;
}

/** The wakes of the two outboxes, one set per repositories (createRepositories). */
export interface OutboxWakes {
  live: OutboxWake;
  mail: OutboxWake;
}

export function outboxWake(): OutboxWake {
  const listeners = new Set<() => void>();
  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of listeners) listener();
    },
  };
}

export const outboxWakes = (): OutboxWakes => ({ live: outboxWake(), mail: outboxWake() });
