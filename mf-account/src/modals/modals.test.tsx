import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '@marketplace/shared/test-utils';
import { sessionStore } from '@marketplace/shared';
import { validateSignup } from '../auth/SignupPage.js';
import { ContactModal } from './ContactModal.js';
import { RoleSelectionModal } from './RoleSelectionModal.js';

const server = useMswServer();

describe('RoleSelectionModal', () => {
  it('is a mandatory dialog whose Continue needs a tick, sends multipart, and sets the roles in the shared store', async () => {
    let sent: Record<string, FormDataEntryValue> = {};
    server.use(
      http.post('http://api.test/v2/updateRoles', async ({ request }) => {
        sent = Object.fromEntries((await request.formData()).entries());
        return HttpResponse.json({ roles: ['MEDIA'], profileName: 'nora', profilePicture: null, username: 'Nora' });
      }),
    );
    sessionStore.setState({
      isLoggedIn: true,
      user: { roles: [], profileName: 'nora', profilePicture: null, username: 'Nora' },
    });
    render(<RoleSelectionModal />);
    expect(screen.getByRole('dialog', { name: 'You need at least 1 role to continue' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Media'));
    expect(next).toBeEnabled();
    await userEvent.click(screen.getByLabelText('Driver'));
    await userEvent.click(screen.getByLabelText('Driver'));
    await userEvent.click(next);
    // The shell unmounts the modal once the user has a role; here the store is what changes.
    await waitFor(() => expect(sessionStore.getState().user?.roles).toEqual(['MEDIA']));
    expect(sent).toEqual({ driver: 'false', media: 'true' });
    expect(screen.getByRole('link', { name: /@/ })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });
});

describe('RoleSelectionModal while saving', () => {
  it('keeps Continue disabled until the answer arrives, and shows a failure', async () => {
    let answer!: () => void;
    server.use(
      http.post(
        'http://api.test/v2/updateRoles',
        () =>
          new Promise<Response>(
            (resolve) => (answer = () => resolve(HttpResponse.json({ error: 'Try again' }, { status: 500 }))),
          ),
      ),
    );
    render(<RoleSelectionModal />);
    await userEvent.click(screen.getByLabelText('Driver'));
    const next = screen.getByRole('button', { name: 'Continue' });
    await userEvent.click(next);
    expect(next).toBeDisabled();
    answer();
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again');
    expect(next).toBeEnabled();
  });
});

describe('ContactModal', () => {
  const fill = async () => {
    await userEvent.type(screen.getByLabelText('Name'), 'Pat');
    await userEvent.type(screen.getByLabelText('Email'), 'pat@example.com');
    await userEvent.type(screen.getByLabelText('Subject'), 'Hi');
    await userEvent.type(screen.getByLabelText('Message'), 'Question');
  };

  it("requires every field, sends without credentials, then thanks the sender: 'We have received your message, thank you'", async () => {
    let credentials: RequestCredentials | null = null;
    server.use(
      http.post('http://api.test/v2/submitContactInfo', ({ request }) => {
        credentials = request.credentials;
        return HttpResponse.json({ received: true });
      }),
    );
    render(<ContactModal onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in every field.');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('We have received your message, thank you')).toBeInTheDocument();
    expect(credentials).toBe('omit');
  });

  it("says 'Email is invalid' when the call fails", async () => {
    server.use(
      http.post('http://api.test/v2/submitContactInfo', () =>
        HttpResponse.json({ error: 'Email is invalid' }, { status: 400 }),
      ),
    );
    render(<ContactModal onClose={() => {}} />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is invalid');
  });
});

describe('validateSignup', () => {
  const ok = { username: 'Ann', profileName: 'ann', email: 'ann@example.com', password: 'long-enough' };
  it('accepts a complete form and names the first problem otherwise', () => {
    expect(validateSignup(ok)).toBeNull();
    expect(validateSignup({ ...ok, username: '' })).toMatch(/name/);
    expect(validateSignup({ ...ok, profileName: 'Ann Upper' })).toMatch(/Profile name/);
    expect(validateSignup({ ...ok, email: 'ann@' })).toBe('Email is invalid');
    expect(validateSignup({ ...ok, password: 'short' })).toMatch(/8 characters/);
  });
});
