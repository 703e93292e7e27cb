import { uiTestConfig } from 'build-preset/vitest';

export default uiTestConfig({ setupFiles: ['@marketplace/shared/testing/fake-live'] });
