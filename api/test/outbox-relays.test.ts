/**
 * The live outbox's relays on PostgreSQL (issue 40, item 3): several instances relay at once, and
 * each message is published once, by one relay at a time, in order. PostgreSQL project only
 * (vitest.config.ts): on SQLite the one process relays alone.
 */
import { describe, expect, it } from 'vitest';
import { createRelay, RELAY_BATCH } from '../src/live/relay.js';
import { fakeBroker, relayDatabase } from './relayTesting.js';

describe('the relays of several instances', () => {
  const { instance, queue, unsent } = relayDatabase();

  it('on PostgreSQL, with two instances relaying at once, publishes each message once, one relay at a time, in order', async () => {
    const [a, b] = [await instance(), await instance()];
    const queued = await queue(a.repos, 'raced', RELAY_BATCH * 3 + 17);
    const took: string[] = [];
    const relays = [a, b].map(({ repos }) => createRelay({ repos, live: fakeBroker(took, { delayMs: 1 }) }, 60_000));
    for (let round = 0; (await unsent(a.db)).length > 0; round++) {
      if (round > 100) throw new Error('the relays do not get through the outbox');
      await Promise.all([...relays, ...relays].map((relay) => relay.pass()));
    }
    expect(took).toEqual(queued);
    await Promise.all(relays.map((relay) => relay.stop()));
  });
});
