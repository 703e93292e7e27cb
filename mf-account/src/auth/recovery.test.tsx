import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithQuery, useMswServer } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes } from '@marketplace/shared';
import { ForgotPasswordPage } from './ForgotPasswordPage.js';
import { LoginPage } from './LoginPage.js';
import { ResetPasswordPage } from './ResetPasswordPage.js';

const server = useMswServer();

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
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
  it('shows every problem of the new password at once, beside its field', async () => {
    renderAt('/user/reset-password?token=abc');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('New password again'), 'shorter');
    await userEvent.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/At least 8 characters/);
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription('The two passwords differ');
  });

  it("sends the link's token with the new password, then offers to log in", async () => {
    let body = '';
    server.use(
      http.post('http://api.test/v2/password/reset', async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({ reset: true });
      }),
    );
    renderAt('/user/reset-password?token=tok_123');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('New password again'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your new password is set');
    expect(body).toBe('token=tok_123&password=a-new-password');
    expect(screen.getByRole('link', { name: 'Log in with it' })).toHaveAttribute('href', '/user/login');
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
    renderAt('/user/reset-password?token=old');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('New password again'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is used, expired or not ours');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/user/forgot-password');
  });

  it('says a link without its token is incomplete', () => {
    renderAt('/user/reset-password');
    expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete');
  });
});
