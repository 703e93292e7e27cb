import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { act } from 'react';
import { Link, live, MemoryRouter, Route, Routes, sessionStore } from '@marketplace/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMswServer } from '@marketplace/shared/test-utils';
import { SESSION_CHANNEL, useSessionAcrossTabs } from './useSessionAcrossTabs.js';
import { useSessionCheck } from './useSessionCheck.js';

const server = useMswServer();

function Probe() {
  useSessionCheck();
  useSessionAcrossTabs();
  return <Link to="/community?x=1">next</Link>;
}

afterEach(() => {
  vi.restoreAllMocks();
  live.close();
  sessionStore.setState({ user: null, isLoggedIn: false, cart: [], ended: null });
  document.documentElement.style.visibility = '';
});

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/user/login" element={<p>login page</p>} />
        <Route path="/" element={<p>home page</p>} />
        <Route path="*" element={<Probe />} />
      </Routes>
    </MemoryRouter>,
  );
}

/**
 * The session checks this page has sent, counted as fetch is called: the check asks in the route's
 * effect, before any await, so once a render or a click has returned, a check it made is counted.
 */
function checksSent(): () => number {
  const sent = vi.spyOn(globalThis, 'fetch');
  return () => sent.mock.calls.filter(([url]) => String(url).endsWith('/v2/checkAuthentication')).length;
}

/**
 * Resolves once the page's first session check has its answer read: the page has acted on it by the
 * time the test's next await returns, so what it did not do by then it does not do.
 */
async function firstCheckAnswered(): Promise<void> {
  const sent = vi.spyOn(globalThis, 'fetch');
  await vi.waitFor(() => expect(sent).toHaveBeenCalled());
  const response = await (sent.mock.results[0]?.value as Promise<Response>).catch(() => null);
  if (response) await vi.waitFor(() => expect(response.bodyUsed).toBe(true));
  await act(async () => undefined);
}

const cookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

describe('session check on route change', () => {
  it('asks nothing while logged out', async () => {
    let calls = 0;
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () => (calls++, HttpResponse.json({ authenticated: true }))),
    );
    const sent = checksSent();
    renderAt('/events');
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    expect([sent(), calls]).toEqual([0, 0]);
  });

  it('checks on every route change while loggedIn = yes', async () => {
    let calls = 0;
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () => (calls++, HttpResponse.json({ authenticated: true }))),
    );
    document.cookie = 'loggedIn=yes; path=/';
    renderAt('/events');
    await waitFor(() => expect(calls).toBe(1));
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    await waitFor(() => expect(calls).toBe(2));
    expect(cookie('loggedIn')).toBe('yes');
  });

  it('does not check again when only the query changes on the same page (a photo opened in the viewer)', async () => {
    let calls = 0;
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () => (calls++, HttpResponse.json({ authenticated: true }))),
    );
    document.cookie = 'loggedIn=yes; path=/';
    const sent = checksSent();
    renderAt('/community');
    await waitFor(() => expect(calls).toBe(1));
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    expect(sent()).toBe(1);
  });

  it('changes nothing when the check answers 500', async () => {
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () => HttpResponse.json({ error: 'x' }, { status: 500 })),
    );
    document.cookie = 'loggedIn=yes; path=/';
    const answered = firstCheckAnswered();
    renderAt('/events');
    await answered;
    expect(screen.getByRole('link', { name: 'next' })).toBeInTheDocument();
    expect(cookie('loggedIn')).toBe('yes');
  });

  it.each([
    ['401', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })],
    ['a network failure', () => HttpResponse.error()],
  ])('on %s: loggedIn=no, the return path is stored, and the user goes to /user/login', async (_label, answer) => {
    server.use(http.post('http://api.test/v2/checkAuthentication', answer));
    document.cookie = 'loggedIn=yes; path=/';
    renderAt('/event/x?y=1');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(cookie('loggedIn')).toBe('no');
    expect(decodeURIComponent(cookie('loginRedirect') ?? '')).toBe('/event/x?y=1');
  });

  it('ignores a check cancelled because the page is being left', async () => {
    server.use(http.post('http://api.test/v2/checkAuthentication', () => HttpResponse.error()));
    document.cookie = 'loggedIn=yes; path=/';
    window.dispatchEvent(new Event('pagehide'));
    const answered = firstCheckAnswered();
    renderAt('/events');
    await answered;
    expect(cookie('loggedIn')).toBe('yes');
    window.dispatchEvent(new Event('pageshow'));
  });
});

const NORA = { profileName: 'nora', username: 'Nora', profilePicture: null, roles: [] };

/** A logged-in page whose route check passes: the session is still valid when the page asks. */
function loggedInWithValidCheck() {
  document.cookie = 'loggedIn=yes; path=/';
  sessionStore.setState({ isLoggedIn: true, user: NORA });
  server.use(
    http.post('http://api.test/v2/checkAuthentication', () => HttpResponse.json({ authenticated: true })),
    http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })),
  );
}

describe('a dead session, whichever check notices it first', () => {
  it("the store's user info on a page load: loggedIn=no, the return path is stored, and the user goes to /user/login", async () => {
    loggedInWithValidCheck();
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })),
    );
    renderAt('/event/x?y=1');
    await act(() => sessionStore.getState().load());
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(cookie('loggedIn')).toBe('no');
    expect(decodeURIComponent(cookie('loginRedirect') ?? '')).toBe('/event/x?y=1');
  });

  it("the live channel's login refused as not logged in: the user goes to /user/login, and it stops asking", async () => {
    loggedInWithValidCheck();
    let asked = 0;
    server.use(
      http.post('http://api.test/v2/liveCredentials', () => {
        asked++;
        return HttpResponse.json({ error: 'Not logged in' }, { status: 401 });
      }),
    );
    renderAt('/eventorder/ord-1');
    act(() => void live.subscribe('notifications', 'nora', () => {}));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(cookie('loggedIn')).toBe('no');
    expect(decodeURIComponent(cookie('loginRedirect') ?? '')).toBe('/eventorder/ord-1');
    expect(asked).toBe(1);
    expect(live.topics).toEqual([]);
  });

  it('a route change after another check ended the session still goes to /user/login', async () => {
    loggedInWithValidCheck();
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })),
    );
    renderAt('/login-first');
    // Ended before the page moves on; the page is left on its route until then.
    await act(() => sessionStore.getState().expire());
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(decodeURIComponent(cookie('loginRedirect') ?? '')).toBe('/login-first');
  });
});

describe('the session across tabs', () => {
  it('a logout in another tab logs this one out and sends it home', async () => {
    loggedInWithValidCheck();
    renderAt('/eventorder/ord-1');
    await waitFor(() => expect(screen.getByRole('link', { name: 'next' })).toBeInTheDocument());
    // The other tab: its logout wrote the cookie, then told the others.
    document.cookie = 'loggedIn=no; path=/';
    const other = new BroadcastChannel(SESSION_CHANNEL);
    other.postMessage('changed');
    other.close();
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(sessionStore.getState()).toMatchObject({ isLoggedIn: false, user: null });
  });

  it('a page restored from the back-forward cache is hidden until its session is checked, and leaves if it ended', async () => {
    loggedInWithValidCheck();
    renderAt('/eventorder/ord-1');
    await waitFor(() => expect(screen.getByRole('link', { name: 'next' })).toBeInTheDocument());
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    expect(document.documentElement.style.visibility).toBe('hidden');
    // Logged out meanwhile, on the page the user went to.
    document.cookie = 'loggedIn=no; path=/';
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.style.visibility).toBe(''));
    expect(sessionStore.getState().isLoggedIn).toBe(false);
  });

  it('a restored page whose session ended on the server goes to /user/login', async () => {
    loggedInWithValidCheck();
    renderAt('/eventorder/ord-1');
    await waitFor(() => expect(screen.getByRole('link', { name: 'next' })).toBeInTheDocument());
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () =>
        HttpResponse.json({ error: 'Not logged in' }, { status: 401 }),
      ),
    );
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.style.visibility).toBe(''));
  });
});
