import { uiTestConfig } from 'build-preset/vitest';

export default uiTestConfig();
