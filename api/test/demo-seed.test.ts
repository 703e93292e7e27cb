/**
 * Demo data (db/seed.ts, its accounts sharing a published password) only when asked: SEED_DEMO=1,
 * which `npm start` and the tests set and a deployment does not.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../src/db/seed.js';
import { useFreshDatabase } from './databases.js';
import { DEMO_PASSWORD, startTestApi } from './harness.js';
import { startStandInBroker } from './standInBroker.js';

describe('demo data', () => {
  const fresh = useFreshDatabase();

  it('is not written without SEED_DEMO: an empty database stays empty, and clara cannot log in', async () => {
    const api = await startTestApi({ ...fresh().env, SEED_DEMO: '' });
    try {
      expect(await api.rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`).toEqual([{ n: 0 }]);
      expect((await api.client().call('login', { login: 'clara', password: DEMO_PASSWORD })).status).toBe(401);
      expect((await api.client().call('getEvents')).body.events).toEqual([]);
      expect(existsSync(join(api.dir, 'media', 'avatars'))).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('is written with SEED_DEMO=1 on an empty database, files included, and only there', async () => {
    const media = join(fresh().dir, 'media');
    // Two instances on one database meet on an external broker (on PostgreSQL the second would
    // not start otherwise): a stand-in, the subject here being the seed.
    const broker = await startStandInBroker();
    const start = () => startTestApi({ ...fresh().env, ...broker.env, MEDIA_DIR: media, SEED_DEMO: '1' });
    const first = await start().catch(async (error: unknown) => {
      await broker.close();
      throw error;
    });
    try {
      expect(await first.rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`).toEqual([{ n: DEMO_USERS.length }]);
      expect((await first.client().call('login', { login: 'clara', password: DEMO_PASSWORD })).status).toBe(200);
      const [clara] = await first.rows<{ picture: string }>`
        SELECT profile_picture AS picture FROM users WHERE profile_name = 'clara'`;
      expect(clara?.picture && existsSync(join(media, clara.picture))).toBe(true);
      // Instances starting together: PostgreSQL's topology, instances.test.ts.
      const second = await start();
      await second.close();
      expect(await first.rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`).toEqual([{ n: DEMO_USERS.length }]);
    } finally {
      await first.close();
      await broker.close();
    }
  });
});
