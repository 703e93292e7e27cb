import { useState, type FormEvent } from 'react';
import {
  apiCall,
  ApiError,
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

const FIELDS = ['username', 'profileName', 'email', 'password'] as const;

/** Checks the fields the API would refuse, so the user sees every problem before sending. */
export function validateSignup(v: Record<(typeof FIELDS)[number], string>): string | null {
  if (!v.username) return 'Enter your name.';
  if (!/^[a-z0-9][a-z0-9_-]{1,29}$/.test(v.profileName)) return 'Profile name: 2-30 lowercase letters, digits, - or _.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email)) return 'Email is invalid';
  if (v.password.length < 8) return 'Password: at least 8 characters.';
  return null;
}

export function SignupPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formFields(event.currentTarget, FIELDS);
    const problem = validateSignup(values);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await apiCall('signup', values);
      await sessionStore.getState().signedIn(user);
      navigate(takeLoginRedirect() ?? PAGES.home.href());
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Sign up failed');
      setBusy(false);
    }
  };
  return (
    <PageLayout width="narrow">
      <h1>Sign up</h1>
      {/* POST: sent by the browser itself (no script yet), the password never goes into an address. */}
      <Form method="post" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Name" name="username" autoComplete="name" required />
        <TextField label="Profile name" name="profileName" autoComplete="off" required />
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        {error && <p role="alert">{error}</p>}
        <Button variant="primary" type="submit" disabled={busy}>
          Sign up
        </Button>
        <p>
          Have an account? <Link to={PAGES.login.href()}>Log in</Link>
        </p>
      </Form>
    </PageLayout>
  );
}
