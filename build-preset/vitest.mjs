import { defineConfig } from 'vitest/config';

/**
 * The component-test config of every UI app: jsdom, jest-dom matchers, shared's test setup, and
 * the app's own setup files after it.
 * @param {{ setupFiles?: string[] }} [options]
 */
export function uiTestConfig({ setupFiles = [] } = {}) {
  return defineConfig({
    test: {
      environment: 'jsdom',
      // Room for the 5 s waits of shared's test setup (findBy, waitFor) on a loaded runner.
      testTimeout: 15_000,
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['@marketplace/shared/testing', ...setupFiles],
    },
  });
}
