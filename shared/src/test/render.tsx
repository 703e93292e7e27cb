import { readdirSync } from 'node:fs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createSessionStore, SessionStoreContext, type SessionState, type SessionStore } from '../session/store.js';

/** Renders a remote's component as the shell would: under a fresh query client (no retries in tests). */
export function renderWithQuery(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The client too: whether a read is under way shows at once (isFetching), before its request lands.
  return { ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>), client };
}

/** The session a test starts from: a visitor with an empty cart, with these fields set. */
export type TestSession = Partial<Pick<SessionState, 'user' | 'isLoggedIn' | 'cart' | 'loaded' | 'ended'>>;

/**
 * A session store of the test's own, so no test's session reaches another's through the page's
 * one store. It neither reads the loggedIn cookie nor the page's server state: `isLoggedIn` is
 * what the test says.
 */
export function testSessionStore(session: TestSession = {}): SessionStore {
  const store = createSessionStore({ isLoggedIn: session.isLoggedIn ?? false, session: null });
  store.setState(session);
  return store;
}

/**
 * `renderWithQuery` under a session store of the test's own (`store`, or one made from `session`),
 * returned as `store`: components read it through `useSession`, the test changes it with
 * `store.setState`. A rerender keeps both.
 */
export function renderWithSession(ui: ReactNode, options: { session?: TestSession; store?: SessionStore } = {}) {
  const store = options.store ?? testSessionStore(options.session);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SessionStoreContext.Provider value={store}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </SessionStoreContext.Provider>
  );
  return { ...render(ui, { wrapper }), client, store };
}

/** The file names (without `.tsx`) in a remote's `exposes/` folder, sorted: what its build publishes. */
export function exposesFolder(folder: string): string[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => f.slice(0, -'.tsx'.length))
    .sort();
}
