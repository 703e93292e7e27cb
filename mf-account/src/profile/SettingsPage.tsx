import { useQueryClient } from '@tanstack/react-query';
import { useContext, useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  callKey,
  PAGE_DATA,
  pageQuery,
  PageLayout,
  QueryState,
  SessionStoreContext,
  Skeleton,
  TextField,
  TitleSkeleton,
  useFormErrors,
  looksLikeEmail,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';
import { MailPreferencesForm, PasswordChange, SessionList } from './AccountSecurity.js';
import { useAccountQuery } from './queries.js';

const PROFILE_FIELDS = ['username', 'email', 'bio'] as const;

/** The form's shape while the profile loads: a title and three labelled fields. */
const FORM_SKELETON = (
  <>
    <TitleSkeleton width={160} />
    {[38, 38, 96].map((height, i) => (
      <div key={i} style={{ maxWidth: 420, marginBottom: 16 }}>
        <Skeleton width={90} height={14} style={{ marginBottom: 6 }} />
        <Skeleton height={height} />
      </div>
    ))}
  </>
);

/**
 * The profile fields the API lets a user change (name, email, about), the password, the sessions
 * logged in, and which notification emails come.
 */
export function SettingsPage() {
  const store = useContext(SessionStoreContext);
  const q = useAccountQuery(pageQuery(PAGE_DATA.ownProfile()));
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(PROFILE_FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { username, email, bio } = formFields(event.currentTarget, PROFILE_FIELDS);
    setSaved(false);
    const found = {
      username: username ? undefined : 'Enter your name',
      email: !email ? 'Enter your email' : looksLikeEmail(email) ? undefined : 'Email is invalid',
    };
    if (!show(found)) return;
    setBusy(true);
    try {
      const profile = await apiCall('updateProfile', { username, email, bio });
      queryClient.setQueryData(callKey('getOwnProfile'), profile);
      const { user } = store.getState();
      if (user) store.getState().setUser({ ...user, username: profile.username });
      setSaved(true);
    } catch (error) {
      // A taken email is the API's, beside the email.
      fail(error, 'Saving failed: try again');
    } finally {
      setBusy(false);
    }
  };
  if (!q.data)
    return (
      <PageLayout width="narrow">
        <QueryState
          isLoading={!q.error}
          error={q.error}
          errorText="Please log in to change your settings."
          skeleton={FORM_SKELETON}
        >
          {null}
        </QueryState>
      </PageLayout>
    );
  return (
    <PageLayout width="narrow">
      <h1>Settings</h1>
      <Form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Name"
          name="username"
          defaultValue={q.data.username}
          maxLength={60}
          error={errorOf('username')}
          required
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          defaultValue={q.data.email}
          error={errorOf('email')}
          required
        />
        <TextField
          label="About you"
          multiline
          name="bio"
          defaultValue={q.data.bio}
          maxLength={500}
          rows={4}
          error={errorOf('bio')}
        />
        {formError && <p role="alert">{formError}</p>}
        {saved && <p role="status">Saved</p>}
        <Button variant="primary" type="submit" disabled={busy}>
          Save
        </Button>
      </Form>
      <PasswordChange />
      <SessionList />
      <MailPreferencesForm />
    </PageLayout>
  );
}
