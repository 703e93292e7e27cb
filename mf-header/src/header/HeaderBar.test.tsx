import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as shared from '@marketplace/shared';
import { sessionStore, type Role } from '@marketplace/shared';
import { renderWithQuery } from '@marketplace/shared/test-utils';
import { HeaderBar } from './HeaderBar.js';

// The live channel is the network edge: no broker in component tests.
vi.mock('@marketplace/shared', async (original) => ({
  ...(await original<typeof shared>()),
  live: { subscribe: () => () => {}, close: () => {} },
}));

const server = setupServer(
  http.get('http://api.test/v2/notifications', () => HttpResponse.json({ notifications: [], more: false })),
  http.get('http://api.test/v2/messageNotifications', () => HttpResponse.json({ messageNotifications: [], more: false })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  sessionStore.setState({ user: null, isLoggedIn: false, cart: [] });
});
afterAll(() => server.close());

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <HeaderBar />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );

const logInAs = (roles: Role[]) =>
  sessionStore.setState({ isLoggedIn: true, user: { roles, profileName: 'u', username: 'User', profilePicture: null } });

describe('HeaderBar', () => {
  it('shows visitors the links, Log in, Sign Up and the cart with its count', () => {
    sessionStore.setState({ cart: [{ identifier: 'a', itemType: 'CONTENT', name: 'A', thumbnailUrl: null, eventName: null, priceCents: 1 }] });
    renderAt('/events');
    expect(screen.getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/events');
    expect(screen.getByRole('link', { name: 'Posts' })).toHaveAttribute('href', '/community');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cart, 1 items' })).toHaveAttribute('href', '/cart');
    expect(screen.queryByRole('button', { name: 'Profile menu' })).toBeNull();
  });

  it('remembers the current path in loginRedirect when Log in is clicked', async () => {
    renderAt('/event/summer?x=1');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/user/login');
    expect(decodeURIComponent(document.cookie)).toContain('loginRedirect=/event/summer?x=1');
  });

  it.each(['/user/login', '/user/signup', '/legal/terms-of-service', '/legal/privacy-policy', '/legal/cookie-policy'])(
    'shrinks to logo and name on %s',
    (path) => {
      renderAt(path);
      expect(screen.getByRole('link', { name: 'EventMedia' })).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Events' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    },
  );

  it.each([
    [[], ['Profile', 'Orders', 'Settings']],
    [['MEDIA'], ['Profile', 'Orders', 'Media packages', 'Discount codes', 'Settings']],
    [['EVENT_ORGANIZER'], ['Profile', 'Events', 'Orders', 'Settings']],
    [['DRIVER', 'EVENT_ORGANIZER', 'MEDIA'], ['Profile', 'Events', 'Orders', 'Media packages', 'Discount codes', 'Settings']],
  ] as [Role[], string[]][])('with roles %j the profile menu holds %j and Logout', async (roles, entries) => {
    logInAs(roles);
    renderAt('/events');
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    const menu = screen.getByRole('button', { name: 'Profile menu' }).parentElement as HTMLElement;
    expect(within(menu).getAllByRole('link').map((a) => a.textContent)).toEqual(entries);
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('logs out on 401 as on 200, and goes home', async () => {
    server.use(http.post('http://api.test/v2/logout', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })));
    logInAs(['MEDIA']);
    document.cookie = 'loggedIn=yes; path=/';
    renderAt('/user/me');
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(document.cookie).toContain('loggedIn=no');
  });
});
