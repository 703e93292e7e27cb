import type { UserConfig } from 'vitest/config';

/** The component-test config of every UI app: jsdom, jest-dom matchers, shared's test setup, then the app's own. */
export function uiTestConfig(options?: { setupFiles?: string[] }): UserConfig;
