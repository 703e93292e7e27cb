import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer, type TestSession } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes, useLocation, type AccountSession } from '@marketplace/shared';
import { MailPreferencesForm, PasswordChange, SessionList } from './AccountSecurity.js';

const server = useMswServer(http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })));

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const renderPage = (page: React.ReactNode, session?: TestSession) =>
  renderWithSession(
    <MemoryRouter initialEntries={['/settings/general']}>
      <Routes>
        <Route path="/settings/general" element={page} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    { session },
  );

const sessions: AccountSession[] = [
  {
    id: 's-here',
    device: 'Firefox on Linux',
    createdAt: '2026-01-01T10:00:00Z',
    lastSeenAt: new Date().toISOString(),
    current: true,
  },
  {
    id: 's-phone',
    device: 'Safari on iOS',
    createdAt: '2026-01-01T09:00:00Z',
    lastSeenAt: '2026-01-02T09:00:00Z',
    current: false,
  },
];

describe('PasswordChange', () => {
  it('states the password rule before anything is typed', () => {
    renderPage(<PasswordChange />);
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('At least 8 characters');
  });

  it('shows every problem at once, each beside its field, and focuses the first, before calling the API', async () => {
    let called = false;
    server.use(
      http.post('http://api.test/v2/user/password', () => {
        called = true;
        return HttpResponse.json({ changed: true });
      }),
    );
    renderPage(<PasswordChange />);
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Enter your current password');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 8 characters Too short: at least 8 characters',
    );
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription('The two passwords differ');
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveFocus());
    expect(called).toBe(false);
  });

  it("shows the API's refusal of the current password beside it", async () => {
    server.use(
      http.post('http://api.test/v2/user/password', () =>
        HttpResponse.json({ error: 'This is not your current password', field: 'currentPassword' }, { status: 400 }),
      ),
    );
    renderPage(<PasswordChange />);
    await userEvent.type(screen.getByLabelText('Current password'), 'wrong-one');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('New password again'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const current = screen.getByLabelText('Current password');
    await waitFor(() => expect(current).toHaveAccessibleDescription('This is not your current password'));
    await waitFor(() => expect(current).toHaveFocus());
    expect(screen.getByLabelText('New password')).not.toHaveAttribute('aria-invalid');
  });

  it("shows a refusal about no field (too many tries) in the form's alert", async () => {
    server.use(
      http.post('http://api.test/v2/user/password', () =>
        HttpResponse.json({ error: 'Too many wrong passwords: try again in 60 s' }, { status: 429 }),
      ),
    );
    renderPage(<PasswordChange />);
    await userEvent.type(screen.getByLabelText('Current password'), 'wrong-one');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('New password again'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many wrong passwords: try again in 60 s');
  });

  it('changes the password and says the other sessions were logged out', async () => {
    let body = '';
    server.use(
      http.post('http://api.test/v2/user/password', async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({ changed: true });
      }),
    );
    renderPage(<PasswordChange />);
    await userEvent.type(screen.getByLabelText('Current password'), 'old-password');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('New password again'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your other sessions were logged out');
    expect(body).toBe('currentPassword=old-password&newPassword=a-new-password');
  });
});

describe('SessionList', () => {
  it('lists each session with its device, marks this browser, and logs another out', async () => {
    let ended = '';
    let listed = sessions;
    server.use(
      http.get('http://api.test/v2/user/sessions', () => HttpResponse.json({ sessions: listed })),
      http.post('http://api.test/v2/user/sessions/end', async ({ request }) => {
        ended = new URLSearchParams(await request.text()).get('sessionId') ?? '';
        listed = sessions.filter((s) => s.id !== ended);
        return HttpResponse.json({ ended });
      }),
    );
    renderPage(<SessionList />);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Firefox on Linux (this browser)'),
      expect.stringContaining('Safari on iOS'),
    ]);
    await userEvent.click(within(items[1] as HTMLElement).getByRole('button', { name: 'Log out Safari on iOS' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(ended).toBe('s-phone');
  });

  it('logs out everywhere, forgets the session here and goes to log in', async () => {
    let endedAll = false;
    server.use(
      http.get('http://api.test/v2/user/sessions', () => HttpResponse.json({ sessions })),
      http.post('http://api.test/v2/user/sessions/endAll', () => {
        endedAll = true;
        return HttpResponse.json({ ended: 2 });
      }),
      http.post('http://api.test/v2/logout', () => HttpResponse.json({ error: 'Log in first' }, { status: 401 })),
    );
    const { store } = renderPage(<SessionList />, {
      isLoggedIn: true,
      user: { roles: [], profileName: 'clara', profilePicture: null, username: 'Clara' },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Log out everywhere' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/user/login');
    expect(endedAll).toBe(true);
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false });
  });
});

describe('MailPreferencesForm', () => {
  it('shows each kind of email on or off and saves a change at once', async () => {
    let sent: Record<string, string> = {};
    server.use(
      http.get('http://api.test/v2/user/mailPreferences', () =>
        HttpResponse.json({ signIn: true, receipts: true, orderUpdates: false }),
      ),
      http.post('http://api.test/v2/user/mailPreferences', async ({ request }) => {
        sent = Object.fromEntries(new URLSearchParams(await request.text()));
        return HttpResponse.json({ signIn: false, receipts: true, orderUpdates: false });
      }),
    );
    renderPage(<MailPreferencesForm />);
    const signIn = await screen.findByRole('checkbox', { name: 'A new sign-in to my account' });
    expect(signIn).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Changes to my event orders' })).not.toBeChecked();
    await userEvent.click(signIn);
    await waitFor(() => expect(signIn).not.toBeChecked());
    expect(sent).toEqual({ signIn: 'false' });
  });
});
