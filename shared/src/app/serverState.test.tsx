import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError, statusOf } from '../api/client.js';
import { createSessionStore, SessionStoreContext, useSession } from '../session/store.js';
import { MemoryRouter } from '../router.js';
import { isNotFoundHead, NOT_FOUND_HEAD, ServerHeadContext, usePageHead, type PageHead } from './head.js';
import {
  dehydrateForPage,
  hydrateFromPage,
  keepNotFoundAnswers,
  SERVER_STATE_ELEMENT_ID,
  serverStateInPage,
  stateScript,
} from './serverState.js';

/** A server's query cache after its render asked for four things: found, missing, failing, still waiting. */
async function serverCache(): Promise<QueryClient> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await client.prefetchQuery({ queryKey: ['event', 'a'], queryFn: () => ({ name: 'Summer Jazz Night' }) });
  await client.prefetchQuery({
    queryKey: ['event', 'missing'],
    queryFn: () => Promise.reject(new ApiError(404, 'no such event')),
  });
  await client.prefetchQuery({ queryKey: ['cart'], queryFn: () => Promise.reject(new ApiError(500, 'down')) });
  void client.prefetchQuery({ queryKey: ['slow'], queryFn: () => new Promise(() => undefined) });
  return client;
}

describe("a server's state in the page", () => {
  it('carries what was read and what does not exist, not failures or what is still on its way', async () => {
    const state = dehydrateForPage(await serverCache());
    expect(state.queries.map((q) => q.queryKey)).toEqual([
      ['event', 'a'],
      ['event', 'missing'],
    ]);
    // Through JSON, as in the page: the browser's cache gets the data and the ApiError back.
    const browser = new QueryClient();
    hydrateFromPage(browser, JSON.parse(JSON.stringify(state)));
    expect(browser.getQueryData(['event', 'a'])).toEqual({ name: 'Summer Jazz Night' });
    const missing = browser.getQueryState(['event', 'missing'])?.error;
    expect(missing).toBeInstanceOf(ApiError);
    expect(statusOf(missing)).toBe(404);
    expect(browser.getQueryState(['cart'])).toBeUndefined();
  });

  it('shows "does not exist" where the page mounts, without asking again', async () => {
    const browser = new QueryClient();
    hydrateFromPage(browser, JSON.parse(JSON.stringify(dehydrateForPage(await serverCache()))));
    let asked = 0;
    function Event() {
      const { error, isLoading } = useQuery({
        queryKey: ['event', 'missing'],
        queryFn: () => {
          asked++;
          return Promise.reject(new ApiError(404, 'no such event'));
        },
      });
      return <p>{isLoading ? 'loading' : statusOf(error) === 404 ? 'not found' : 'other'}</p>;
    }
    render(
      <QueryClientProvider client={browser}>
        <Event />
      </QueryClientProvider>,
    );
    expect(screen.getByText('not found')).toBeInTheDocument();
    expect(asked).toBe(0);
  });

  it('sets retryOnMount off for those keys only', async () => {
    const client = await serverCache();
    keepNotFoundAnswers(client);
    expect(client.getQueryDefaults(['event', 'missing']).retryOnMount).toBe(false);
    expect(client.getQueryDefaults(['event', 'a']).retryOnMount).toBeUndefined();
    expect(client.getQueryDefaults(['cart']).retryOnMount).toBeUndefined();
  });

  it('stays data in the page whatever the data says, and is read back from it', async () => {
    const client = new QueryClient();
    const hostile = '</script><script>window.__pwned=1</script><!--';
    client.setQueryData(['event', 'x'], { name: hostile });
    const script = stateScript({ queries: dehydrateForPage(client), slots: { 'media/EventPage': 'http://m/' } });
    // One element: the data's "</script>" cannot end it.
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).not.toContain('<script>window');
    document.body.innerHTML = script;
    const read = serverStateInPage();
    expect(read?.slots).toEqual({ 'media/EventPage': 'http://m/' });
    expect(read?.queries.queries[0]?.state.data).toEqual({ name: hostile });
    document.body.innerHTML = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">{"queries":</script>`;
    expect(serverStateInPage()).toBeNull();
  });

  it('carries the failures its server saw, by remote; anything else in their place is left out', () => {
    const queries = dehydrateForPage(new QueryClient());
    document.body.innerHTML = stateScript({
      queries,
      slots: {},
      failures: [{ remote: 'header', message: 'Error: flaky header' }],
    });
    expect(serverStateInPage()?.failures).toEqual([{ remote: 'header', message: 'Error: flaky header' }]);
    document.body.innerHTML = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${JSON.stringify({
      queries,
      slots: {},
      failures: [{ remote: 'evil', message: 'x' }, { remote: 'media' }, 'header', { remote: 'media', message: 'y' }],
    })}</script>`;
    expect(serverStateInPage()?.failures).toEqual([{ remote: 'media', message: 'y' }]);
    // An older server's page: none.
    document.body.innerHTML = stateScript({ queries, slots: {} });
    expect(serverStateInPage()).toEqual({ queries, slots: {} });
  });

  it("carries its render's id, with failures or without; an id that is not one the server draws is left out", () => {
    const queries = dehydrateForPage(new QueryClient());
    const failures = [{ remote: 'header' as const, message: 'Error: flaky header' }];
    const render = '0f8fad5b-d9cb-469f-a165-70867728950e';
    document.body.innerHTML = stateScript({ queries, slots: {}, failures, render });
    expect(serverStateInPage()).toEqual({ queries, slots: {}, failures, render });
    document.body.innerHTML = stateScript({ queries, slots: {}, render });
    expect(serverStateInPage()).toEqual({ queries, slots: {}, render });
    const page = (value: unknown) =>
      `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${JSON.stringify({ queries, slots: {}, failures, render: value })}</script>`;
    for (const value of ['x', 42, `${render} `, render.toUpperCase()]) {
      document.body.innerHTML = page(value);
      expect(serverStateInPage()).toEqual({ queries, slots: {}, failures });
    }
  });
});

describe('a page kept for visitors, in a browser whose loggedIn cookie says yes', () => {
  function Who() {
    return <span>{useSession((s) => (s.isLoggedIn ? 'member' : 'visitor'))}</span>;
  }
  const pageWith = (state: object, html: string) => {
    document.body.innerHTML = `<div id="root">${html}</div><script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${JSON.stringify(
      { queries: dehydrateForPage(new QueryClient()), slots: {}, ...state },
    )}</script>`;
  };
  const visitorsPage = () =>
    renderToString(
      <SessionStoreContext.Provider value={createSessionStore({ isLoggedIn: false, session: null })}>
        <Who />
      </SessionStoreContext.Provider>,
    );

  it('hydrates as the visitor it was rendered for; the store then follows the cookie', async () => {
    document.cookie = 'loggedIn=yes; path=/';
    try {
      pageWith({ loggedIn: false }, visitorsPage());
      const store = createSessionStore();
      expect(store.getState().isLoggedIn).toBe(false);
      const mismatches: unknown[] = [];
      const root = document.getElementById('root');
      if (!root) throw new Error('no root');
      const hydrated = await act(async () =>
        hydrateRoot(
          root,
          <SessionStoreContext.Provider value={store}>
            <Who />
          </SessionStoreContext.Provider>,
          { onRecoverableError: (error) => mismatches.push(error) },
        ),
      );
      expect([mismatches, root.textContent]).toEqual([[], 'visitor']);
      // What load() does once the API knows the cookie's user.
      act(() => store.setState({ isLoggedIn: true }));
      expect(root.textContent).toBe('member');
      act(() => hydrated.unmount());
      // A page of a server that did not say: the cookie, as before.
      pageWith({}, visitorsPage());
      expect(createSessionStore().getState().isLoggedIn).toBe(true);
    } finally {
      document.cookie = 'loggedIn=; path=/; max-age=0';
    }
  });
});

describe('rendering on a server', () => {
  it("reads each request's own session store, not the page's", () => {
    function Who() {
      return <span>{useSession((s) => (s.isLoggedIn ? 'member' : 'visitor'))}</span>;
    }
    const page = (isLoggedIn: boolean) =>
      renderToString(
        <SessionStoreContext.Provider value={createSessionStore({ isLoggedIn })}>
          <Who />
        </SessionStoreContext.Provider>,
      );
    expect([page(true), page(false), page(true)]).toEqual([
      '<span>member</span>',
      '<span>visitor</span>',
      '<span>member</span>',
    ]);
  });

  it('hears the head a page says while it renders (effects never run there)', () => {
    const said: PageHead[] = [];
    function EventPage({ found }: { found: boolean }) {
      usePageHead(
        found ? { title: 'Summer Jazz Night', description: 'Jazz.', image: 'http://f/c.png' } : NOT_FOUND_HEAD,
      );
      return null;
    }
    for (const found of [true, false])
      renderToString(
        <ServerHeadContext.Provider value={(head) => said.push(head)}>
          <MemoryRouter>
            <EventPage found={found} />
          </MemoryRouter>
        </ServerHeadContext.Provider>,
      );
    expect(said[0]).toEqual({ title: 'Summer Jazz Night', description: 'Jazz.', image: 'http://f/c.png' });
    expect(isNotFoundHead(said[0] as PageHead)).toBe(false);
    expect(isNotFoundHead(said[1] as PageHead)).toBe(true);
  });
});
