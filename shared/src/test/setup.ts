import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setRuntimeConfig } from '../config/runtime.js';
import { resetKeptDrafts } from '../ui/useKeptDraft.js';

/** The origins unit tests talk to; MSW answers for them at the network edge. */
export const TEST_CONFIG = {
  apiOrigin: 'http://api.test',
  filesOrigin: 'http://files.test',
  liveUrl: 'ws://api.test/mqtt',
  remotes: {
    header: 'http://header.test/mf-manifest.json',
    media: 'http://media.test/mf-manifest.json',
    eventOrder: 'http://order.test/mf-manifest.json',
    account: 'http://account.test/mf-manifest.json',
  },
};
setRuntimeConfig(TEST_CONFIG);

// findBy and waitFor wait for what a test expects for up to 5 s, not the library's 1 s: on a
// loaded two-core runner a render with a lazy remote and MSW answers can take longer than 1 s.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no matchMedia: answer max-width queries from window.innerWidth, which tests set.
if (!window.matchMedia) {
  window.matchMedia = (query: string) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    return {
      matches: max ? window.innerWidth <= Number(max[1]) : false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  };
}

afterEach(() => {
  // A draft typed in a test and not yet written to sessionStorage is dropped, not written as the tree unmounts.
  resetKeptDrafts();
  cleanup();
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});
