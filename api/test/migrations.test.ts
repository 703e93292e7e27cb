/**
 * Migrations through Kysely's Migrator (db/migrations.ts). A database the runner before it
 * migrated, which numbered them in schema_migrations, is taken over as it is.
 */
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { MIGRATIONS, migrationProvider } from '../src/db/migrations.js';
import type { Schema } from '../src/db/schema.js';
import { unmigrated, useFreshDatabase } from './databases.js';
import { ENGINE } from './harness.js';

// A type, not an interface: withTables wants a record of tables.
type MigrationTables = {
  schema_migrations: { version: number; applied_at: string };
  kysely_migration: { name: string; timestamp: string };
};

describe('migrations', () => {
  const fresh = useFreshDatabase();

  it('take over a database the runner before them migrated: its rows stay, and only what it lacks runs', async () => {
    // As an upgraded deployment has it: the first four applied, numbered in schema_migrations.
    const legacy = MIGRATIONS.slice(0, 4).map(([name], i) => ({ name, timestamp: `2026-01-0${i + 1}T00:00:00.000Z` }));
    const old = unmigrated<Schema & MigrationTables>(fresh().target);
    try {
      const upToLegacy = await new Migrator({ db: old, provider: migrationProvider(ENGINE) }).migrateTo(
        '0004_login_failures',
      );
      expect(upToLegacy.error).toBeUndefined();
      await old.schema.dropTable('kysely_migration').execute();
      await old.schema.dropTable('kysely_migration_lock').execute();
      await old.schema
        .createTable('schema_migrations')
        .addColumn('version', 'integer', (col) => col.primaryKey())
        .addColumn('applied_at', 'text', (col) => col.notNull())
        .execute();
      await old
        .insertInto('schema_migrations')
        .values(legacy.map(({ timestamp }, i) => ({ version: i + 1, applied_at: timestamp })))
        .execute();
      await old
        .insertInto('users')
        .values({
          profile_name: 'olden',
          username: 'Olden',
          email: 'o@example.com',
          password_hash: '-',
          created_at: '',
        })
        .execute();
    } finally {
      await old.destroy();
    }

    // Running the first four again would fail on tables that exist.
    const database = await openDatabase(fresh().target);
    try {
      const db = database.db.withTables<MigrationTables>();
      const applied = await db.selectFrom('kysely_migration').select(['name', 'timestamp']).orderBy('name').execute();
      expect(applied.map((row) => row.name)).toEqual(MIGRATIONS.map(([name]) => name));
      expect(applied.slice(0, 4)).toEqual(legacy);
      for (const later of applied.slice(4)) expect(later.timestamp > '2026-01-05').toBe(true);
      expect(await db.selectFrom('users').select('profile_name').execute()).toEqual([{ profile_name: 'olden' }]);
    } finally {
      await database.close();
    }
    // Taken over once: opening again finds nothing to do.
    const again = await openDatabase(fresh().target);
    await again.close();
  });
});
