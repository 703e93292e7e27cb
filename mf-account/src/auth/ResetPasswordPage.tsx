import { useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  PASSWORD_RULE,
  sessionStore,
  TextField,
  useFormErrors,
  useSearchParams,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['password', 'confirm', 'token'] as const;

/** The password rule of sign-up, checked before sending: every problem at once, beside its field. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_RULE.min) return `At least ${PASSWORD_RULE.min} characters`;
  if (password.length > PASSWORD_RULE.max) return `At most ${PASSWORD_RULE.max} characters`;
  return undefined;
}

/** Sets a new password with the link from the mail (`?token=`); every session of the account ends. */
export function ResetPasswordPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { password, confirm } = formFields(event.currentTarget, ['password', 'confirm'] as const);
    const found = {
      password: passwordProblem(password),
      confirm: confirm !== password ? 'The two passwords differ' : undefined,
    };
    if (!show(found)) return;
    setBusy(true);
    try {
      await apiCall('resetPassword', { token, password });
      // Every session of the account ended, this browser's too if it had one: it forgets it.
      if (sessionStore.getState().isLoggedIn)
        await sessionStore
          .getState()
          .logout()
          .catch(() => undefined);
      setDone(true);
    } catch (error) {
      fail(error, 'The password could not be set: try again');
    } finally {
      setBusy(false);
    }
  };
  if (!token)
    return (
      <PageLayout width="narrow">
        <h1>Set a new password</h1>
        <p role="alert">This link is incomplete. Open the link from the mail again, or ask for a new one.</p>
        <Link to={PAGES.forgotPassword.href()}>Ask for a new link</Link>
      </PageLayout>
    );
  return (
    <PageLayout width="narrow">
      <h1>Set a new password</h1>
      {done ? (
        <>
          <p role="status">Your new password is set, and every session of your account has ended.</p>
          <Link to={PAGES.login.href()}>Log in with it</Link>
        </>
      ) : (
        <Form method="post" onSubmit={(e) => void submit(e)} noValidate>
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_RULE.min} characters`}
            error={errorOf('password')}
            required
          />
          <TextField
            label="New password again"
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={errorOf('confirm')}
            required
          />
          {(errorOf('token') || formError) && (
            <p role="alert">
              {errorOf('token') ?? formError}{' '}
              {errorOf('token') && <Link to={PAGES.forgotPassword.href()}>Ask for a new link</Link>}
            </p>
          )}
          <Button variant="primary" type="submit" disabled={busy}>
            Set the password
          </Button>
        </Form>
      )}
    </PageLayout>
  );
}
