import { defineConfig } from 'vitest/config';

// The API suite runs twice: on SQLite (the default engine) and on a real PostgreSQL server
// (test/postgres.setup.ts); the unit tests beside the sources run once. Several instances on one
// database (instances.test.ts, gateway.test.ts) is PostgreSQL's topology: SQLite is one process's store.
export default defineConfig({
  test: {
    environment: 'node',
    // Each file starts its own server on its own temporary database; files run in parallel.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [
            'test/instances.test.ts',
            'test/gateway.test.ts',
            'test/database-faults.test.ts',
            'test/instance-kill.test.ts',
            'test/keepalive.test.ts',
            'test/startup-lock.test.ts',
            'test/outbox-relays.test.ts',
            'test/pgboss-schema.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          // The gateway's retries need no database: once is enough. Nor does the RabbitMQ cluster's
          // test (its minutes of node faults would run twice for the same broker behaviour).
          exclude: ['test/gateway-retry.test.ts', 'test/external-broker.test.ts'],
          env: { API_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/postgres.setup.ts'],
        },
      },
    ],
  },
});
