import { defineConfig } from 'vitest/config';

/** The component-test config of every UI app: jsdom, jest-dom matchers, shared's test setup. */
export function uiTestConfig() {
  return defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['@marketplace/shared/testing'],
    },
  });
}
