import { useContext, useEffect, useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  Link,
  PageLayout,
  PAGES,
  SessionStoreContext,
  useFormErrors,
  useLocation,
  useNavigate,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';
import { NewPasswordFields, newPasswordProblems } from './NewPasswordFields.js';

const FIELDS = ['password', 'confirm', 'token'] as const;

/**
 * The link's token: in the fragment (`#token=`), which a browser sends to no server and puts in
 * no Referer; in the query (`?token=`) in links mailed before. Empty when the link has none.
 */
function tokenOf(hash: string, search: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? new URLSearchParams(search).get('token') ?? '';
}

/** Sets a new password with the link from the mail; every session of the account ends. */
export function ResetPasswordPage() {
  const store = useContext(SessionStoreContext);
  const { pathname, search, hash, state } = useLocation();
  // The token, once taken out of the address, rides in the history entry's state (never sent to a
  // server): the page may be rendered anew by the navigation that took it out.
  const carried = (state as { resetToken?: unknown } | null)?.resetToken;
  const navigate = useNavigate();
  // Read after the first render: the server never sees the fragment, so a page rendered there
  // has no token, and the browser's first render must be the same (hydration). Null until read.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    if (token !== null) return;
    if (typeof carried === 'string') {
      setToken(carried);
      return;
    }
    const found = tokenOf(hash || window.location.hash, search);
    setToken(found);
    if (!found) return;
    // Kept in the page only: out of the address bar, its history entry, and any later Referer.
    const rest = new URLSearchParams(search);
    rest.delete('token');
    const query = rest.toString();
    navigate({ pathname, search: query ? `?${query}` : '', hash: '' }, { replace: true, state: { resetToken: found } });
  }, [token, carried, pathname, search, hash, navigate]);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    const { password, confirm } = formFields(event.currentTarget, ['password', 'confirm'] as const);
    const found = newPasswordProblems(password, confirm);
    if (!show({ password: found.password, confirm: found.again })) return;
    setBusy(true);
    try {
      await apiCall('resetPassword', { token, password });
      // Every session of the account ended, this browser's too if it had one: it forgets it.
      if (store.getState().isLoggedIn)
        await store
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
  if (token === '')
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
        <Form ref={formRef} method="post" onSubmit={(e) => void submit(e)} noValidate>
          <NewPasswordFields
            names={{ password: 'password', again: 'confirm' }}
            errors={{ password: errorOf('password'), again: errorOf('confirm') }}
          />
          {(errorOf('token') || formError) && (
            <p role="alert">
              {errorOf('token') ?? formError}{' '}
              {errorOf('token') && <Link to={PAGES.forgotPassword.href()}>Ask for a new link</Link>}
            </p>
          )}
          <Button variant="primary" type="submit" disabled={busy || token === null}>
            Set the password
          </Button>
        </Form>
      )}
    </PageLayout>
  );
}
