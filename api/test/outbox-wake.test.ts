/**
 * The outboxes' runners are woken by commits (repositories/sql.ts afterCommit): a row written in a
 * transaction wakes this process's relay or mail sender once that commits, never before it and
 * never after a rollback; a row written outside one wakes them at once. On both engines.
 */
import { describe, expect, it, vi } from 'vitest';
import { createRelay } from '../src/live/relay.js';
import { fileLinks } from '../src/files/fileLinks.js';
import { createRepositories, type Repositories, type RepositorySet } from '../src/repositories/index.js';
import { ADMIN_TOKEN } from './harness.js';
import { fakeBroker, relayDatabase } from './relayTesting.js';

const links = fileLinks(ADMIN_TOKEN);

const notification = (content: string) => ({
  id: 0,
  status: 'NEW' as const,
  content,
  link: null,
  timestamp: new Date().toISOString(),
});

const addMessage = (repos: RepositorySet, content: string) =>
  repos.liveOutbox.add('notifications', 'wake-test', notification(content));

const addMail = (repos: RepositorySet, subject: string) =>
  repos.mailOutbox.add({ kind: 'orderUpdate', to: 'wake@example.com', subject, text: subject, html: subject });

/** Counts the wakes of each outbox of `repos`. */
function wakesOf(repos: Repositories) {
  const heard = { live: 0, mail: 0 };
  repos.wakes.live.listen(() => heard.live++);
  repos.wakes.mail.listen(() => heard.mail++);
  return heard;
}

describe('the outboxes are woken by commits', () => {
  const { instance } = relayDatabase();

  it('wakes each runner once per row after its transaction commits, not while it is open', async () => {
    const { repos } = await instance();
    const heard = wakesOf(repos);
    const during = await repos.transaction(async (tx) => {
      await addMessage(tx, 'in a transaction');
      await addMessage(tx, 'and another');
      await addMail(tx, 'with a mail');
      return { ...heard };
    });
    expect(during).toEqual({ live: 0, mail: 0 });
    expect(heard).toEqual({ live: 2, mail: 1 });
  });

  it('wakes nothing for rows whose transaction rolls back', async () => {
    const { repos } = await instance();
    const heard = wakesOf(repos);
    await expect(
      repos.transaction(async (tx) => {
        await addMessage(tx, 'rolled back');
        await addMail(tx, 'rolled back too');
        throw new Error('the change fails after its rows');
      }),
    ).rejects.toThrow('the change fails');
    expect(heard).toEqual({ live: 0, mail: 0 });
  });

  it('wakes at once for a row written outside a transaction', async () => {
    const { repos } = await instance();
    const heard = wakesOf(repos);
    await addMessage(repos, 'on its own');
    expect(heard).toEqual({ live: 1, mail: 0 });
    await addMail(repos, 'on its own');
    expect(heard).toEqual({ live: 1, mail: 1 });
  });

  it('refuses a row written in a transaction whose commit it cannot see, and the row rolls back', async () => {
    const { db } = await instance();
    await expect(
      db.transaction().execute((trx) => addMessage(createRepositories(trx, 'http://127.0.0.1', links), 'unseen')),
    ).rejects.toThrow(/not opened by inTransaction/);
    const rows = await db.selectFrom('live_outbox').select('id').where('payload', 'like', '%unseen%').execute();
    expect(rows).toEqual([]);
  });
});

describe('a relay woken by commits', () => {
  const { instance } = relayDatabase();

  it('publishes a committed message without waiting for its poll while started, and is not woken once stopped', async () => {
    const { repos } = await instance();
    const took: string[] = [];
    // A poll an hour away: only a wake can make it publish within the test.
    const relay = createRelay({ repos, live: fakeBroker(took) }, 3_600_000);
    // A wake starts its pass at once, reading the outbox before the write returns.
    const reads = vi.spyOn(repos.liveOutbox, 'withOldest');
    await addMessage(repos, 'before the start');
    expect(reads).not.toHaveBeenCalled();
    relay.start();
    await repos.transaction((tx) => addMessage(tx, 'woken by the commit'));
    expect(reads).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(took).toEqual(['before the start', 'woken by the commit']));
    await relay.stop();
    reads.mockClear();
    await addMessage(repos, 'after the stop');
    expect(reads).not.toHaveBeenCalled();
  });
});
