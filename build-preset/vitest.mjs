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
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['@marketplace/shared/testing', ...setupFiles],
    },
  });
}
