/**
 * What the relay's tests share (outbox.test.ts on both engines, outbox-relays.test.ts on
 * PostgreSQL): a stand-in broker, and a fresh database with instances of its own on it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { fileLinks } from '../src/files/fileLinks.js';
import type { LivePublisher } from '../src/live/publisher.js';
import { createRepositories, type Repositories } from '../src/repositories/index.js';
import { useFreshDatabase } from './databases.js';
import { ADMIN_TOKEN } from './harness.js';

/** A broker that takes every message after `delayMs`, unless `down`; logs the contents it took, in order. */
export function fakeBroker(
  log: string[],
  { delayMs = 0, down = () => false }: { delayMs?: number; down?: () => boolean } = {},
): LivePublisher {
  return {
    publish: () => undefined,
    async publishAsync(_kind, _profileName, json) {
      if (delayMs) await sleep(delayMs);
      if (down()) throw new Error('the broker is down');
      log.push((JSON.parse(json) as { content: string }).content);
    },
    endSession: () => Promise.resolve(),
    closeEnded: () => Promise.resolve(0),
    close: () => Promise.resolve(),
  };
}

/** A fresh database for a describe block, and what its relay tests do with it. */
export function relayDatabase() {
  const fresh = useFreshDatabase();
  const opened: Database[] = [];
  afterAll(() => Promise.all(opened.map((database) => database.close())));

  /** The database and its repositories on a pool of their own, as another instance has them. */
  async function instance(): Promise<{ db: Database['db']; repos: Repositories }> {
    const database = await openDatabase(fresh().target);
    opened.push(database);
    return { db: database.db, repos: createRepositories(database.db, 'http://127.0.0.1', fileLinks(ADMIN_TOKEN)) };
  }

  /** Queues `count` notifications named `${prefix} <n>`; their contents, in the order written. */
  async function queue(repos: Repositories, prefix: string, count: number): Promise<string[]> {
    const contents = Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
    for (const content of contents)
      await repos.liveOutbox.add('notifications', 'relay-test', {
        id: 0,
        status: 'NEW',
        content,
        link: null,
        timestamp: new Date().toISOString(),
      });
    return contents;
  }

  const unsent = (db: Database['db']) =>
    db.selectFrom('live_outbox').select(['id', 'attempts']).where('sent_at', 'is', null).orderBy('id').execute();
  return { instance, queue, unsent };
}
