import { useContext, useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  PASSWORD_HINT,
  passwordProblem,
  SessionStoreContext,
  takeLoginRedirect,
  TextField,
  useFormErrors,
  useNavigate,
  type FieldErrors,
  looksLikeEmail,
  PROFILE_NAME_HINT,
  PROFILE_NAME_PATTERN,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['username', 'profileName', 'email', 'password'] as const;
type Field = (typeof FIELDS)[number];

/** Checks every field the API would refuse, so the user sees every problem at once before sending. */
export function validateSignup(v: Record<Field, string>): FieldErrors<Field> {
  return {
    username: v.username ? undefined : 'Enter your name',
    profileName: !v.profileName
      ? 'Choose a profile name'
      : PROFILE_NAME_PATTERN.test(v.profileName)
        ? undefined
        : `Use ${PROFILE_NAME_HINT}`,
    email: !v.email ? 'Enter your email' : looksLikeEmail(v.email) ? undefined : 'Email is invalid',
    password: passwordProblem(v.password),
  };
}

export function SignupPage() {
  const store = useContext(SessionStoreContext);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formFields(event.currentTarget, FIELDS);
    if (!show(validateSignup(values))) return;
    setBusy(true);
    try {
      const user = await apiCall('signup', values);
      await store.getState().signedIn(user);
      navigate(takeLoginRedirect() ?? PAGES.home.href());
    } catch (error) {
      // A taken profile name or email is the API's, beside its field.
      fail(error, 'Sign up failed: try again');
      setBusy(false);
    }
  };
  return (
    <PageLayout width="narrow">
      <h1>Sign up</h1>
      {/* POST: sent by the browser itself (no script yet), the password never goes into an address. */}
      <Form ref={formRef} method="post" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Name"
          name="username"
          autoComplete="name"
          maxLength={60}
          error={errorOf('username')}
          required
        />
        <TextField
          label="Profile name"
          name="profileName"
          autoComplete="off"
          hint={`Your page's address: ${PROFILE_NAME_HINT}.`}
          error={errorOf('profileName')}
          required
        />
        <TextField label="Email" name="email" type="email" autoComplete="email" error={errorOf('email')} required />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          error={errorOf('password')}
          required
        />
        {formError && <p role="alert">{formError}</p>}
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
