import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderWithQuery, useMswServer } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes, useLocation } from '@marketplace/shared';
import { ForgotPasswordPage } from './ForgotPasswordPage.js';
import { LoginPage } from './LoginPage.js';
import { ResetPasswordPage } from './ResetPasswordPage.js';

const server = useMswServer();

/** The address bar, as the router has it. */
function Address() {
  const { pathname, search, hash } = useLocation();
  return <p data-testid="address">{`${pathname}${search}${hash}`}</p>;
}

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Address />
      <Routes>
        <Route path="/user/login" element={<LoginPage />} />
        <Route path="/user/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/user/reset-password" element={<ResetPasswordPage />} />
      </Routes>
    </MemoryRouter>,
  );

describe('ForgotPasswordPage', () => {
  it('is linked from the log-in page', async () => {
    renderAt('/user/login');
    await userEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('says the email is missing or invalid beside the field, without calling the API', async () => {
    let called = false;
    server.use(
      http.post('http://api.test/v2/password/forgot', () => {
        called = true;
        return HttpResponse.json({ requested: true });
      }),
    );
    renderAt('/user/forgot-password');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter the email of your account');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is invalid');
    expect(called).toBe(false);
  });

  it('sends the email and says the same thing whether or not an account has it', async () => {
    let body = '';
    server.use(
      http.post('http://api.test/v2/password/forgot', async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({ requested: true });
      }),
    );
    renderAt('/user/forgot-password');
    await userEvent.type(screen.getByLabelText('Email'), 'clara@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account has the email clara@example.com, we sent it a link to set a new password. The link works once, for 30 minutes.',
    );
    expect(body).toBe('email=clara%40example.com');
  });
});

describe('ResetPasswordPage', () => {
  const resetApi = () => {
    const sent = { body: '' };
    server.use(
      http.post('http://api.test/v2/password/reset', async ({ request }) => {
        sent.body = await request.text();
        return HttpResponse.json({ reset: true });
      }),
    );
    return sent;
  };
  const setPassword = async (password: string, again = password) => {
    await userEvent.type(screen.getByLabelText('New password'), password);
    await userEvent.type(screen.getByLabelText('New password again'), again);
    await userEvent.click(screen.getByRole('button', { name: 'Set the password' }));
  };

  it('states the password rule before anything is typed', () => {
    renderAt('/user/reset-password#token=abc');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('At least 8 characters');
  });

  it('shows every problem of the new password at once, beside its field, and focuses the first', async () => {
    renderAt('/user/reset-password#token=abc');
    await setPassword('short', 'shorter');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 8 characters Too short: at least 8 characters',
    );
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription('The two passwords differ');
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveFocus());
  });

  it("sends the token of the link's fragment with the new password, then offers to log in", async () => {
    const sent = resetApi();
    renderAt('/user/reset-password#token=tok_123');
    await setPassword('a-new-password');
    expect(await screen.findByRole('status')).toHaveTextContent('Your new password is set');
    expect(sent.body).toBe('token=tok_123&password=a-new-password');
    expect(screen.getByRole('link', { name: 'Log in with it' })).toHaveAttribute('href', '/user/login');
  });

  it('takes the token out of the address as soon as it is read', async () => {
    const sent = resetApi();
    renderAt('/user/reset-password#token=tok_123');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/user\/reset-password$/));
    // Still the page's.
    await setPassword('a-new-password');
    await screen.findByRole('status');
    expect(sent.body).toBe('token=tok_123&password=a-new-password');
  });

  it('still takes the token of a link mailed with it in the query, and takes it out of the address too', async () => {
    const sent = resetApi();
    renderAt('/user/reset-password?token=tok_old&utm=mail');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/user\/reset-password\?utm=mail$/));
    await setPassword('a-new-password');
    await screen.findByRole('status');
    expect(sent.body).toBe('token=tok_old&password=a-new-password');
  });

  it('says when the link is used or expired, and offers a new one', async () => {
    server.use(
      http.post('http://api.test/v2/password/reset', () =>
        HttpResponse.json(
          { error: 'This link is used, expired or not ours: ask for a new one', field: 'token' },
          { status: 400 },
        ),
      ),
    );
    renderAt('/user/reset-password#token=old');
    await setPassword('a-new-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is used, expired or not ours');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/user/forgot-password');
  });

  it("shows the API's reason about the password beside it", async () => {
    server.use(
      http.post('http://api.test/v2/password/reset', () =>
        HttpResponse.json(
          { error: "Invalid field 'password': must be at most 200 characters", field: 'password' },
          { status: 400 },
        ),
      ),
    );
    renderAt('/user/reset-password#token=abc');
    await setPassword('a-new-password');
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        "At least 8 characters Invalid field 'password': must be at most 200 characters",
      ),
    );
  });

  it('renders on the server (which never sees the fragment) as the browser first does: the form, not sendable yet', () => {
    const html = renderToString(
      <MemoryRouter initialEntries={['/user/reset-password']}>
        <ResetPasswordPage />
      </MemoryRouter>,
    );
    expect(html).toContain('New password again');
    expect(html).not.toContain('incomplete');
    expect(html).toMatch(/<button[^>]*disabled/);
  });

  it('says a link without its token is incomplete', async () => {
    renderAt('/user/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete');
  });
});
