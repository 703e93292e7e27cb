import { useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  PASSWORD_RESET_MINUTES,
  TextField,
  useFormErrors,
  looksLikeEmail,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['email'] as const;

/**
 * Asks for a link to set a new password. The answer is the same whether or not an account has
 * the email (the API's too), so the page never tells who has an account.
 */
export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { email } = formFields(event.currentTarget, FIELDS);
    const valid = looksLikeEmail(email);
    if (!show({ email: !email ? 'Enter the email of your account' : valid ? undefined : 'Email is invalid' })) return;
    setBusy(true);
    try {
      await apiCall('requestPasswordReset', { email });
      setSentTo(email);
    } catch (error) {
      fail(error, 'The link could not be sent: try again');
    } finally {
      setBusy(false);
    }
  };
  return (
    <PageLayout width="narrow">
      <h1>Forgot your password?</h1>
      {sentTo ? (
        <>
          <p role="status">
            If an account has the email {sentTo}, we sent it a link to set a new password. The link works once, for{' '}
            {PASSWORD_RESET_MINUTES} minutes.
          </p>
          <p>
            <Link to={PAGES.login.href()}>Back to log in</Link>
          </p>
        </>
      ) : (
        <Form ref={formRef} method="post" onSubmit={(e) => void submit(e)} noValidate>
          <p>Enter the email of your account and we will send you a link to set a new password.</p>
          <TextField label="Email" name="email" type="email" autoComplete="email" error={errorOf('email')} required />
          {formError && <p role="alert">{formError}</p>}
          <Button variant="primary" type="submit" disabled={busy}>
            Send the link
          </Button>
          <p>
            Remembered it? <Link to={PAGES.login.href()}>Log in</Link>
          </p>
        </Form>
      )}
    </PageLayout>
  );
}
