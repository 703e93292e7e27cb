import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each file starts its own server on its own temporary database; files run in parallel.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
