import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer, watchFetches } from '@marketplace/shared/test-utils';
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
    const { store } = renderWithSession(<RoleSelectionModal />, {
      session: { isLoggedIn: true, user: { roles: [], profileName: 'nora', profilePicture: null, username: 'Nora' } },
    });
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
    await waitFor(() => expect(store.getState().user?.roles).toEqual(['MEDIA']));
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
    renderWithSession(<RoleSelectionModal />);
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
    server.use(http.post('http://api.test/v2/submitContactInfo', () => HttpResponse.json({ received: true })));
    const fetches = watchFetches();
    render(<ContactModal onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    // Every missing field at once, each beside its box; the first takes the focus.
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter your name');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter your email');
    expect(screen.getByLabelText('Subject')).toHaveAccessibleDescription('Enter a subject');
    expect(screen.getByLabelText('Message')).toHaveAccessibleDescription('Write your message');
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(fetches.map((request) => request.credentials)).toEqual([]);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('We have received your message, thank you')).toBeInTheDocument();
    expect(fetches.map((request) => request.credentials)).toEqual(['omit']);
  });

  it("says 'Email is invalid' beside the email before sending one that is not an address", async () => {
    render(<ContactModal onClose={() => {}} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Pat');
    await userEvent.type(screen.getByLabelText('Email'), 'pat@');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is invalid');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
  });

  it("says 'Email is invalid' beside the email when the API refuses it", async () => {
    server.use(
      http.post('http://api.test/v2/submitContactInfo', () =>
        HttpResponse.json({ error: "Invalid field 'email': Email is invalid", field: 'email' }, { status: 400 }),
      ),
    );
    render(<ContactModal onClose={() => {}} />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is invalid'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it("says 'Email is invalid' when the call fails for a reason about no field", async () => {
    server.use(
      http.post('http://api.test/v2/submitContactInfo', () =>
        HttpResponse.json({ error: 'Internal error' }, { status: 500 }),
      ),
    );
    render(<ContactModal onClose={() => {}} />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is invalid');
  });

  it("shows the API's reason about another field beside that field", async () => {
    server.use(
      http.post('http://api.test/v2/submitContactInfo', () =>
        HttpResponse.json({ error: "Invalid field 'subject': is too long", field: 'subject' }, { status: 400 }),
      ),
    );
    render(<ContactModal onClose={() => {}} />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Subject')).toHaveAccessibleDescription("Invalid field 'subject': is too long"),
    );
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
