import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { MemoryRouter, Route, Routes } from '../router.js';
import { useMswServer } from '../test/msw.js';
import { renderWithSession, type TestSession } from '../test/render.js';
import { QueryState } from './QueryState.js';

const server = useMswServer();

function renderRefused(status: number, session?: TestSession) {
  return renderWithSession(
    <MemoryRouter initialEntries={['/eventorder/ord-1?x=1']}>
      <Routes>
        <Route
          path="/eventorder/:id"
          element={
            <QueryState isLoading={false} error={new ApiError(status, 'No')} errorText="You may not see this order">
              {null}
            </QueryState>
          }
        />
        <Route path="/user/login" element={<p>login page</p>} />
      </Routes>
    </MemoryRouter>,
    { session },
  );
}

const redirect = () =>
  decodeURIComponent(
    document.cookie
      .split('; ')
      .find((c) => c.startsWith('loginRedirect='))
      ?.slice('loginRedirect='.length) ?? '',
  );

describe('a page whose data is refused to this visitor', () => {
  it('offers a visitor to log in, and comes back to the page after', async () => {
    renderRefused(401);
    expect(screen.getByRole('alert')).toHaveTextContent('You may not see this order');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(redirect()).toBe('/eventorder/ord-1?x=1');
  });

  it('offers "Log in", not "as someone else", to a visitor refused a page with 403: there is no session to end', async () => {
    let loggedOut = 0;
    server.use(http.post('http://api.test/v2/logout', () => (loggedOut++, HttpResponse.json({}))));
    renderRefused(403);
    expect(screen.queryByRole('button', { name: 'Log in as someone else' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(loggedOut).toBe(0);
    expect(redirect()).toBe('/eventorder/ord-1?x=1');
  });

  it('offers a member to log in as someone else: this session ends first', async () => {
    let loggedOut = 0;
    server.use(http.post('http://api.test/v2/logout', () => (loggedOut++, HttpResponse.json({}))));
    const { store } = renderRefused(403, {
      isLoggedIn: true,
      user: { profileName: 'tom', username: 'Tom', profilePicture: null, roles: [] },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Log in as someone else' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(loggedOut).toBe(1);
    expect(store.getState().isLoggedIn).toBe(false);
    expect(redirect()).toBe('/eventorder/ord-1?x=1');
  });

  it('says only the reason when loading failed for another cause', () => {
    renderRefused(503);
    expect(screen.getByRole('alert')).toHaveTextContent('You may not see this order');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
