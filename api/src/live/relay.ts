import type { Repositories } from '../repositories/index.js';
import type { OutboxMarks, OutboxMessage } from '../repositories/liveOutbox.js';
import type { LivePublisher } from './publisher.js';

/** Messages one pass takes at a time (on PostgreSQL, rows it holds locked while it publishes them). */
export const RELAY_BATCH = 100;
/** How long the broker has to acknowledge a message before it is tried again later. */
export const RELAY_ACK_TIMEOUT_MS = 3000;
/** A pass stops taking messages of its batch after this long, so its transaction stays short. */
const PASS_BUDGET_MS = 2000;
/** The wait after a message's first failed publish, doubled at each further one, up to the most. */
const RETRY_FIRST_MS = 250;
const RETRY_MOST_MS = 5000;

export const retryDelayMs = (attempts: number): number =>
  Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));

export interface LiveRelay {
  /**
   * Asks for a pass now: a message was just written. It may not be committed yet (the writer's
   * transaction is still open): the poll finds it then.
   */
  kick(): void;
  /** One pass now, or after the one under way; answers how many messages it published. */
  pass(): Promise<number>;
  /** Polls every `pollMs` from now. */
  start(): void;
  /** Stops polling, lets the pass under way end, and runs one more for what was committed meanwhile (once). */
  stop(): Promise<void>;
}

/**
 * Publishes the live outbox (issue 40, item 3): each instance runs one, and the outbox lets one
 * of them at a time take the oldest unsent messages (repositories/liveOutbox.ts). A pass publishes
 * them oldest first, each awaited until the broker acknowledges it and marked sent then. A publish
 * that fails (broker down, no acknowledgement in time) ends the pass: the message waits
 * `retryDelayMs(attempts)` and nothing overtakes it, so a user's messages arrive in the order they
 * were written. Delivery is at least once: a relay that dies between a publish and its mark
 * publishes again next time, so every message carries an id and pages drop one they have.
 */
export function createRelay(
  { repos, live }: { repos: Pick<Repositories, 'liveOutbox'>; live: LivePublisher },
  pollMs: number,
): LiveRelay {
  let running: Promise<number> | null = null;
  let again = false;
  let polling: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  let failing = false;

  const report = (what: string, error: unknown) =>
    console.error(`[live] relay: ${what}: ${error instanceof Error ? error.message : String(error)}`);

  /** Publishes what `withOldest` gives, in order, until done, out of time or a publish fails. */
  const publishAll = async (messages: OutboxMessage[], marks: OutboxMarks) => {
    let published = 0;
    const started = Date.now();
    for (const message of messages) {
      if (Date.now() - started > PASS_BUDGET_MS || Date.parse(message.nextAttemptAt) > Date.now()) break;
      try {
        await live.publishAsync(message.kind, message.profileName, message.payload, RELAY_ACK_TIMEOUT_MS);
      } catch (error) {
        const attempts = message.attempts + 1;
        await marks.failed(message.id, attempts, new Date(Date.now() + retryDelayMs(attempts)).toISOString());
        // The first failure, then every tenth: a broker down for an hour is not a log line a second.
        if (attempts % 10 === 1) report(`message ${message.id} not published (attempt ${attempts})`, error);
        break;
      }
      await marks.sent(message.id);
      published++;
    }
    return { published, whole: published === messages.length };
  };

  /** Passes until the outbox has no more than one batch's worth ready, or a pass stops short. */
  const run = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      let outcome = { published: 0, whole: false, full: false };
      try {
        await repos.liveOutbox.withOldest(RELAY_BATCH, async (messages, marks) => {
          outcome = { ...(await publishAll(messages, marks)), full: messages.length === RELAY_BATCH };
        });
        failing = false;
      } catch (error) {
        // The database (down, restarting): the next poll tries again; said once per outage.
        if (!failing) report('the outbox cannot be read', error);
        failing = true;
      }
      total += outcome.published;
      if (!(outcome.whole && outcome.full) || stopped) return total;
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

  return {
    kick() {
      if (!stopped) void pass();
    },
    pass,
    start() {
      stopped = false;
      polling ??= setInterval(() => void pass(), pollMs);
      polling.unref();
    },
    async stop() {
      // Once: a second close of the instance finds its database gone.
      if (stopped) return;
      stopped = true;
      if (polling) clearInterval(polling);
      polling = null;
      await running;
      await run();
    },
  };
}
