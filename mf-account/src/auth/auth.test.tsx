import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithQuery, useMswServer } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes, sessionStore, setLoginRedirect, useLocation } from '@marketplace/shared';
import { LoginPage } from './LoginPage.js';
import { SignupPage } from './SignupPage.js';

const clara = { roles: ['DRIVER'], profileName: 'clara', profilePicture: null, username: 'Clara' };
const server = useMswServer(http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })));
afterEach(() => {
  sessionStore.setState({ user: null, isLoggedIn: false, cart: [] });
});

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/user/login" element={<LoginPage />} />
        <Route path="/user/signup" element={<SignupPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );

it('sends the log-in and sign-up forms by POST if the browser sends them itself (no script yet): a password never goes into an address', () => {
  for (const [path, button] of [
    ['/user/login', 'Log in'],
    ['/user/signup', 'Sign up'],
  ] as const) {
    const { unmount } = renderAt(path);
    expect(screen.getByRole('button', { name: button }).closest('form')?.method).toBe('post');
    unmount();
  }
});

describe('LoginPage', () => {
  it('asks for both fields before calling the API, and announces it', async () => {
    renderAt('/user/login');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your email or profile name, and your password.');
  });

  it("shows the API's reason when the login is refused", async () => {
    server.use(
      http.post('http://api.test/v2/login', () =>
        HttpResponse.json({ error: 'Wrong email, profile name or password' }, { status: 401 }),
      ),
    );
    renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), 'clara');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email, profile name or password');
    expect(sessionStore.getState().user).toBeNull();
  });

  it('logs in, fills the shared session, returns to loginRedirect and clears it', async () => {
    let body = '';
    server.use(
      http.post('http://api.test/v2/login', async ({ request }) => {
        body = await request.text();
        document.cookie = 'loggedIn=yes; path=/';
        return HttpResponse.json(clara);
      }),
    );
    setLoginRedirect('/event/jazz');
    renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), 'clara');
    await userEvent.type(screen.getByLabelText('Password'), 'demo-pass-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/event/jazz');
    expect(body).toBe('login=clara&password=demo-pass-2026');
    expect(sessionStore.getState()).toMatchObject({ user: clara, isLoggedIn: true });
    expect(document.cookie).not.toContain('loginRedirect');
  });

  it('goes home when there is no loginRedirect', async () => {
    server.use(http.post('http://api.test/v2/login', () => HttpResponse.json(clara)));
    renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), 'clara');
    await userEvent.type(screen.getByLabelText('Password'), 'demo-pass-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/$/);
  });
});

describe('SignupPage', () => {
  const fill = async (over: Partial<Record<'Name' | 'Profile name' | 'Email' | 'Password', string>> = {}) => {
    const values = {
      Name: 'Nina',
      'Profile name': 'nina',
      Email: 'nina@example.com',
      Password: 'long-enough',
      ...over,
    };
    for (const [label, value] of Object.entries(values))
      if (value) await userEvent.type(screen.getByLabelText(label), value);
  };

  it('names the problem before sending anything', async () => {
    renderAt('/user/signup');
    await fill({ Email: 'nina@' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Email is invalid');
  });

  it("shows the API's reason for a taken profile name", async () => {
    server.use(
      http.post('http://api.test/v2/signup', () =>
        HttpResponse.json({ error: 'This profile name is taken', field: 'profileName' }, { status: 409 }),
      ),
    );
    renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This profile name is taken');
  });

  it('signs up as a form, logged in with no roles (the shell then shows the role modal)', async () => {
    let sent: Record<string, string> = {};
    server.use(
      http.post('http://api.test/v2/signup', async ({ request }) => {
        sent = Object.fromEntries(new URLSearchParams(await request.text()));
        return HttpResponse.json(
          { roles: [], profileName: 'nina', profilePicture: null, username: 'Nina' },
          { status: 201 },
        );
      }),
    );
    renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/$/);
    expect(sent).toEqual({ username: 'Nina', profileName: 'nina', email: 'nina@example.com', password: 'long-enough' });
    expect(sessionStore.getState().user?.roles).toEqual([]);
  });
});
