import { messageOf } from '@marketplace/shared/errors';
import type { OutboxWake } from './wake.js';

/** What one batch of an outbox did: how many rows it handled, and whether more may be ready now. */
export interface OutboxBatch {
  done: number;
  more: boolean;
}

export interface OutboxRunner {
  /** Asks for a pass now: a row was just committed (what `wake` does while the runner is started). */
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
  /** Told after each commit of a row of this process's (outbox/wake.ts): a pass follows at once. */
  wake?: OutboxWake;
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
 * is ready, one pass at a time (a kick, or a wake while started, during a pass asks for another
 * after it, never a second at once), a poll every `pollMs` for what no wake announced (another instance's writes, retries
 * come due), the polls doubling their wait while the database fails, up to `mostPollMs`, and back
 * to `pollMs` once it answers. A database failure is reported once per outage.
 */
export function createOutboxRunner({
  name,
  pollMs,
  wake,
  batch,
  finalPass = false,
  mostPollMs = pollMs * 8,
  report = (line) => console.error(line),
}: OutboxRunnerOptions): OutboxRunner {
  let running: Promise<number> | null = null;
  let again = false;
  let polling: ReturnType<typeof setTimeout> | null = null;
  let unlisten: (() => void) | null = null;
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
        if (failures === 0) report(`${name} the outbox cannot be read: ${messageOf(error)}`);
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

  const kick = () => {
    if (!stopped) void pass();
  };

  return {
    kick,
    pass,
    start() {
      stopped = false;
      if (started) return;
      started = true;
      unlisten = wake?.listen(kick) ?? null;
      schedule();
    },
    async stop() {
      // Once: a second close of the instance finds its database gone.
      if (stopped) return;
      stopped = true;
      started = false;
      unlisten?.();
      unlisten = null;
      if (polling) clearTimeout(polling);
      polling = null;
      await running;
      if (finalPass) await run();
    },
  };
}
