/** What one batch of an outbox did: how many rows it handled, and whether more may be ready now. */
export interface OutboxBatch {
  done: number;
  more: boolean;
}

export interface OutboxRunner {
  /**
   * Asks for a pass now: a row was just written. It may not be committed yet (the writer's
   * transaction is still open): the poll finds it then.
   */
  kick(): void;
  /** One pass now, or after the one under way; answers how many rows it handled. */
  pass(): Promise<number>;
  /** Polls every `pollMs` from now (more slowly while the outbox cannot be read). */
  start(): void;
  /** Stops polling and lets the pass under way end (then, with `finalPass`, runs one more, once). */
  stop(): Promise<void>;
}

export interface OutboxRunnerOptions {
  /** Starts each log line: `[live] relay:`, `[mail]`. */
  name: string;
  pollMs: number;
  /**
   * Works one batch of the outbox. Throws when the outbox cannot be read (the database down or
   * restarting): the pass ends there and the polls back off until it can again.
   */
  batch(): Promise<OutboxBatch>;
  /** Whether `stop` runs one more pass for what was committed while the last one ran. */
  finalPass?: boolean;
  /** The longest wait between polls while the outbox cannot be read (default 8 polls). */
  mostPollMs?: number;
  report?: (line: string) => void;
}

/**
 * The loop an outbox's worker runs (live/relay.ts, mail/sender.ts): batches until one says no more
 * is ready, one pass at a time (a kick during a pass asks for another after it, never a second at
 * once), a poll every `pollMs` for what no kick announced (another instance's writes, retries
 * come due), the polls doubling their wait while the database fails, up to `mostPollMs`, and back
 * to `pollMs` once it answers. A database failure is reported once per outage.
 */
export function createOutboxRunner({
  name,
  pollMs,
  batch,
  finalPass = false,
  mostPollMs = pollMs * 8,
  report = (line) => console.error(line),
}: OutboxRunnerOptions): OutboxRunner {
  let running: Promise<number> | null = null;
  let again = false;
  let polling: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let stopped = false;
  /** Consecutive passes that could not read the outbox. */
  let failures = 0;

  const run = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      let outcome: OutboxBatch;
      try {
        outcome = await batch();
      } catch (error) {
        if (failures === 0)
          report(`${name} the outbox cannot be read: ${error instanceof Error ? error.message : String(error)}`);
        failures++;
        return total;
      }
      failures = 0;
      total += outcome.done;
      if (!outcome.more || stopped) return total;
    }
  };

  const pass = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    const current = (async () => {
      let total = 0;
      do {
        again = false;
        total += await run();
      } while (again && !stopped);
      return total;
    })().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };

  const schedule = () => {
    if (!started || polling) return;
    const wait = failures === 0 ? pollMs : Math.min(mostPollMs, pollMs * 2 ** failures);
    polling = setTimeout(() => {
      polling = null;
      void pass().finally(schedule);
    }, wait);
    polling.unref();
  };

  return {
    kick() {
      if (!stopped) void pass();
    },
    pass,
    start() {
      stopped = false;
      if (started) return;
      started = true;
      schedule();
    },
    async stop() {
      // Once: a second close of the instance finds its database gone.
      if (stopped) return;
      stopped = true;
      started = false;
      if (polling) clearTimeout(polling);
      polling = null;
      await running;
      if (finalPass) await run();
    },
  };
}
