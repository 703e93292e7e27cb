import { useQueryClient } from '@tanstack/react-query';
import { useContext, useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  callKey,
  callQuery,
  Checkbox,
  MAIL_PREFERENCE_KINDS,
  PAGES,
  QueryState,
  SessionStoreContext,
  TextField,
  Time,
  useFormErrors,
  useNavigate,
  type MailPreferences,
} from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
import { NewPasswordFields, newPasswordProblems } from '../auth/NewPasswordFields.js';
import { Form, formFields } from '../ui.js';
import { useAccountQuery } from './queries.js';

const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirm'] as const;

/** Changes the password: the current one is required, and every other session ends. */
export function PasswordChange() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(PASSWORD_FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { currentPassword, newPassword, confirm } = formFields(form, PASSWORD_FIELDS);
    setStatus(null);
    const problems = newPasswordProblems(newPassword, confirm);
    const found = {
      currentPassword: currentPassword ? undefined : 'Enter your current password',
      newPassword: problems.password,
      confirm: problems.again,
    };
    if (!show(found)) return;
    setBusy(true);
    try {
      await apiCall('changePassword', { currentPassword, newPassword });
      form.reset();
      setStatus('Password changed. Your other sessions were logged out.');
      await queryClient.invalidateQueries({ queryKey: callKey('getAccountSessions') });
    } catch (error) {
      fail(error, 'The password could not be changed: try again');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <Form ref={formRef} method="post" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={errorOf('currentPassword')}
          required
        />
        <NewPasswordFields
          names={{ password: 'newPassword', again: 'confirm' }}
          errors={{ password: errorOf('newPassword'), again: errorOf('confirm') }}
        />
        {formError && <p role="alert">{formError}</p>}
        {status && <p role="status">{status}</p>}
        <Button variant="primary" type="submit" disabled={busy}>
          Change password
        </Button>
      </Form>
    </section>
  );
}

/** The browsers signed in to the account, each with "Log out", and "Log out everywhere". */
export function SessionList() {
  const store = useContext(SessionStoreContext);
  const q = useAccountQuery(callQuery('getAccountSessions'));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const leave = async () => {
    // The API ended this session: the page forgets it as a logout does (401 counts as success).
    await store.getState().logout();
    navigate(PAGES.login.href());
  };
  const end = async (sessionId: string, current: boolean) => {
    setError(null);
    try {
      await apiCall('endAccountSession', { sessionId });
      if (current) return await leave();
      await queryClient.invalidateQueries({ queryKey: callKey('getAccountSessions') });
    } catch (e) {
      setError(messageOf(e, 'That session could not be logged out'));
    }
  };
  const endAll = async () => {
    setError(null);
    try {
      await apiCall('endAllAccountSessions');
      await leave();
    } catch (e) {
      setError(messageOf(e, 'The sessions could not be logged out'));
    }
  };
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are logged in</h2>
      <QueryState isLoading={!q.data && !q.error} error={q.error} errorText="The sessions could not be loaded.">
        <ul>
          {q.data?.sessions.map((session) => (
            <li key={session.id}>
              <strong>{session.device}</strong>
              {session.current && ' (this browser)'} · last seen <Time iso={session.lastSeenAt} />{' '}
              <Button
                onClick={() => void end(session.id, session.current)}
                aria-label={`Log out ${session.device}${session.current ? ' (this browser)' : ''}`}
              >
                Log out
              </Button>
            </li>
          ))}
        </ul>
        {error && <p role="alert">{error}</p>}
        <Button onClick={() => void endAll()}>Log out everywhere</Button>
      </QueryState>
    </section>
  );
}

const KIND_LABELS: Record<keyof MailPreferences, string> = {
  signIn: 'A new sign-in to my account',
  receipts: 'Receipts for my purchases',
  orderUpdates: 'Changes to my event orders',
};

/** Which notification emails the user gets; each box saves at once. */
export function MailPreferencesForm() {
  const q = useAccountQuery(callQuery('getMailPreferences'));
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const toggle = async (kind: keyof MailPreferences, on: boolean) => {
    if (!q.data) return;
    setError(null);
    try {
      // Only the kind switched: another tab's change to another kind is not overwritten by this copy.
      const saved = await apiCall('updateMailPreferences', { [kind]: on });
      queryClient.setQueryData(callKey('getMailPreferences'), saved);
    } catch (e) {
      setError(messageOf(e, 'Saving failed'));
    }
  };
  return (
    <section aria-labelledby="mail-heading">
      <h2 id="mail-heading">Emails</h2>
      <QueryState isLoading={!q.data && !q.error} error={q.error} errorText="Your email choices could not be loaded.">
        <p>Email me about:</p>
        {MAIL_PREFERENCE_KINDS.map((kind) => (
          <Checkbox
            key={kind}
            label={KIND_LABELS[kind]}
            checked={q.data?.[kind] ?? false}
            onChange={(event) => void toggle(kind, event.target.checked)}
          />
        ))}
        <p>Links to set a new password are always sent.</p>
        {error && <p role="alert">{error}</p>}
      </QueryState>
    </section>
  );
}
