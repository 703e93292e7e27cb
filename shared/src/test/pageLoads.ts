import { vi } from 'vitest';

/**
 * Stands in for the browser's navigation to another origin (jsdom cannot leave the page): answers
 * the mock that `window.location.assign` became. The test file restores it (`vi.unstubAllGlobals`).
 */
export function watchPageLoads() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}
