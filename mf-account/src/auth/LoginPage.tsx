import { useContext, useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  SessionStoreContext,
  takeLoginRedirect,
  TextField,
  useFormErrors,
  useNavigate,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['login', 'password'] as const;

/** Logs in, updates the shared session (the header changes at once), returns to loginRedirect. */
export function LoginPage() {
  const store = useContext(SessionStoreContext);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { login, password } = formFields(event.currentTarget, FIELDS);
    const found = {
      login: login ? undefined : 'Enter your email or profile name',
      password: password ? undefined : 'Enter your password',
    };
    if (!show(found)) return;
    setBusy(true);
    try {
      const user = await apiCall('login', { login, password });
      await store.getState().signedIn(user);
      navigate(takeLoginRedirect() ?? PAGES.home.href());
    } catch (error) {
      // A refused login names no field (which of the two is wrong is not told): the form's alert.
      fail(error, 'Log in failed: try again');
      setBusy(false);
    }
  };
  return (
    <PageLayout width="narrow">
      <h1>Log in</h1>
      {/* POST: sent by the browser itself (no script yet), the password never goes into an address. */}
      <Form ref={formRef} method="post" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Email or profile name"
          name="login"
          autoComplete="username"
          error={errorOf('login')}
          required
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={errorOf('password')}
          required
        />
        <p>
          <Link to={PAGES.forgotPassword.href()}>Forgot password?</Link>
        </p>
        {formError && <p role="alert">{formError}</p>}
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
