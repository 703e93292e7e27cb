import { uiTestConfig } from 'build-preset/vitest';

export default uiTestConfig({ setupFiles: ['./src/test/setup.ts'] });
