import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    // node/: the Node-side modules' tests (Node's modules are there under jsdom too).
    include: ['src/**/*.test.{ts,tsx}', 'node/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
