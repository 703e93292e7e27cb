import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Link, MemoryRouter, Route, Routes } from '@marketplace/shared';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '@marketplace/shared/test-utils';
import { useSessionCheck } from './useSessionCheck.js';

const server = useMswServer();

function Probe() {
  useSessionCheck();
  return <Link to="/community?x=1">next</Link>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/user/login" element={<p>login page</p>} />
        <Route path="*" element={<Probe />} />
      </Routes>
    </MemoryRouter>,
  );
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
    renderAt('/events');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(0);
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

  it('changes nothing when the check answers 500', async () => {
    server.use(
      http.post('http://api.test/v2/checkAuthentication', () => HttpResponse.json({ error: 'x' }, { status: 500 })),
    );
    document.cookie = 'loggedIn=yes; path=/';
    renderAt('/events');
    await new Promise((r) => setTimeout(r, 50));
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
    renderAt('/events');
    await new Promise((r) => setTimeout(r, 50));
    expect(cookie('loggedIn')).toBe('yes');
    window.dispatchEvent(new Event('pageshow'));
  });
});
