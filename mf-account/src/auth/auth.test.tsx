import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes, setLoginRedirect, useLocation } from '@marketplace/shared';
import { LoginPage } from './LoginPage.js';
import { SignupPage, validateSignup } from './SignupPage.js';

const clara = { roles: ['DRIVER'], profileName: 'clara', profilePicture: null, username: 'Clara' };
const server = useMswServer(http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })));

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const renderAt = (path: string) =>
  renderWithSession(
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
  it('asks for both fields at once, each beside its box, and focuses the first, before calling the API', async () => {
    let called = false;
    server.use(
      http.post('http://api.test/v2/login', () => {
        called = true;
        return HttpResponse.json(clara);
      }),
    );
    renderAt('/user/login');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const login = screen.getByLabelText('Email or profile name');
    expect(login).toHaveAccessibleDescription('Enter your email or profile name');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password');
    await waitFor(() => expect(login).toHaveFocus());
    // Only what is still missing.
    await userEvent.type(login, 'clara');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(login).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(called).toBe(false);
  });

  it("shows the API's reason when the login is refused", async () => {
    server.use(
      http.post('http://api.test/v2/login', () =>
        HttpResponse.json({ error: 'Wrong email, profile name or password' }, { status: 401 }),
      ),
    );
    const { store } = renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), 'clara');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    // The API does not say which of the two is wrong: the form's alert says it, no field is marked.
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email, profile name or password');
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
    expect(store.getState().user).toBeNull();
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
    const { store } = renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), 'clara');
    await userEvent.type(screen.getByLabelText('Password'), 'demo-pass-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/event/jazz');
    expect(body).toBe('login=clara&password=demo-pass-2026');
    expect(store.getState()).toMatchObject({ user: clara, isLoggedIn: true });
    expect(document.cookie).not.toContain('loginRedirect');
  });

  it('sends the password exactly as typed, spaces around it included, and the name trimmed', async () => {
    let body = '';
    server.use(
      http.post('http://api.test/v2/login', async ({ request }) => {
        body = await request.text();
        return HttpResponse.json(clara);
      }),
    );
    renderAt('/user/login');
    await userEvent.type(screen.getByLabelText('Email or profile name'), ' clara ');
    await userEvent.type(screen.getByLabelText('Password'), ' demo pass 2026 ');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(body).not.toBe(''));
    expect(new URLSearchParams(body).get('password')).toBe(' demo pass 2026 ');
    expect(new URLSearchParams(body).get('login')).toBe('clara');
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

  it('states the password rule and the profile name rule before anything is typed', () => {
    renderAt('/user/signup');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters');
    expect(screen.getByLabelText('Profile name')).toHaveAccessibleDescription(
      "Your page's address: 2 to 30 lowercase letters, digits, - or _.",
    );
  });

  it('shows every problem at once, each beside its field, focuses the first, and sends nothing', async () => {
    let called = false;
    server.use(
      http.post('http://api.test/v2/signup', () => {
        called = true;
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    renderAt('/user/signup');
    await fill({ Name: '', 'Profile name': 'Nina Upper', Email: 'nina@', Password: 'short' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter your name');
    expect(screen.getByLabelText('Profile name')).toHaveAccessibleDescription(
      /Use 2 to 30 lowercase letters, digits, - or _/,
    );
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is invalid');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'At least 8 characters Too short: at least 8 characters',
    );
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(called).toBe(false);
  });

  it("shows the API's reason for a taken profile name beside it, and focuses it", async () => {
    server.use(
      http.post('http://api.test/v2/signup', () =>
        HttpResponse.json({ error: 'This profile name is taken', field: 'profileName' }, { status: 409 }),
      ),
    );
    renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const profileName = screen.getByLabelText('Profile name');
    await waitFor(() => expect(profileName).toHaveAccessibleDescription(/This profile name is taken/));
    await waitFor(() => expect(profileName).toHaveFocus());
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the API's reason for a taken email beside the email", async () => {
    server.use(
      http.post('http://api.test/v2/signup', () =>
        HttpResponse.json({ error: 'An account with this email exists', field: 'email' }, { status: 409 }),
      ),
    );
    renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('An account with this email exists'),
    );
  });

  it("shows a reason about no field in the form's alert", async () => {
    server.use(
      http.post('http://api.test/v2/signup', () =>
        HttpResponse.json({ error: 'Too many sign-ups: try again later' }, { status: 429 }),
      ),
    );
    renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-ups: try again later');
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
    const { store } = renderAt('/user/signup');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/$/);
    expect(sent).toEqual({ username: 'Nina', profileName: 'nina', email: 'nina@example.com', password: 'long-enough' });
    expect(store.getState().user?.roles).toEqual([]);
  });
});

describe('validateSignup', () => {
  const ok = { username: 'Ann', profileName: 'ann', email: 'ann@example.com', password: 'long-enough' };
  it('accepts a complete form, and names every problem of one otherwise', () => {
    expect(Object.values(validateSignup(ok)).filter(Boolean)).toEqual([]);
    expect(validateSignup({ username: '', profileName: 'Ann Upper', email: 'ann@', password: 'short' })).toEqual({
      username: 'Enter your name',
      profileName: expect.stringMatching(/lowercase/),
      email: 'Email is invalid',
      password: 'Too short: at least 8 characters',
    });
    expect(validateSignup({ ...ok, password: 'x'.repeat(201) }).password).toBe('Too long: at most 200 characters');
  });
});
