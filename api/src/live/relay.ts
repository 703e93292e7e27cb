import { messageOf } from '@marketplace/shared/errors';
import { createOutboxRunner, type OutboxRunner } from '../outbox/runner.js';
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

/** The relay's runner (outbox/runner.ts): woken after each commit of a message, polling, and on `stop` one last pass. */
export type LiveRelay = OutboxRunner;

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
  { repos, live }: { repos: Pick<Repositories, 'liveOutbox' | 'wakes'>; live: LivePublisher },
  pollMs: number,
): LiveRelay {
  const report = (what: string, error: unknown) => console.error(`[live] relay: ${what}: ${messageOf(error)}`);

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

  return createOutboxRunner({
    name: '[live] relay:',
    pollMs,
    wake: repos.wakes.live,
    // Another batch at once only when this one was whole and full: more may be ready.
    async batch() {
      let outcome = { done: 0, more: false };
      await repos.liveOutbox.withOldest(RELAY_BATCH, async (messages, marks) => {
        const { published, whole } = await publishAll(messages, marks);
        outcome = { done: published, more: whole && messages.length === RELAY_BATCH };
      });
      return outcome;
    },
    // What was committed before the broker goes is published before it goes.
    finalPass: true,
  });
}
