import { useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  sessionStore,
  takeLoginRedirect,
  TextField,
  useNavigate,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

/** Logs in, updates the shared session (the header changes at once), returns to loginRedirect. */
export function LoginPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { login, password } = formFields(event.currentTarget, ['login', 'password'] as const);
    if (!login || !password) {
      setError('Enter your email or profile name, and your password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await apiCall('login', { login, password });
      await sessionStore.getState().signedIn(user);
      navigate(takeLoginRedirect() ?? PAGES.home.href());
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Log in failed');
      setBusy(false);
    }
  };
  return (
    <PageLayout width="narrow">
      <h1>Log in</h1>
      {/* POST: sent by the browser itself (no script yet), the password never goes into an address. */}
      <Form method="post" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Email or profile name" name="login" autoComplete="username" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <p>
          <Link to={PAGES.forgotPassword.href()}>Forgot password?</Link>
        </p>
        {error && <p role="alert">{error}</p>}
        <Button variant="primary" type="submit" disabled={busy}>
          Log in
        </Button>
        <p>
          New here? <Link to={PAGES.signup.href()}>Sign up</Link>
        </p>
      </Form>
    </PageLayout>
  );
}
