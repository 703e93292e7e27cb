import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  callKey,
  callQuery,
  PageLayout,
  QueryState,
  sessionStore,
  Skeleton,
  TextField,
  TitleSkeleton,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';
import { MailPreferencesForm, PasswordChange, SessionList } from './AccountSecurity.js';
import { useAccountQuery } from './queries.js';

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
  const q = useAccountQuery(callQuery('getOwnProfile'));
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { username, email, bio } = formFields(event.currentTarget, ['username', 'email', 'bio'] as const);
    try {
      const profile = await apiCall('updateProfile', { username, email, bio });
      queryClient.setQueryData(callKey('getOwnProfile'), profile);
      const { user } = sessionStore.getState();
      if (user) sessionStore.getState().setUser({ ...user, username: profile.username });
      setStatus({ ok: true, text: 'Saved' });
    } catch (e) {
      setStatus({ ok: false, text: e instanceof Error ? e.message : 'Saving failed' });
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
      <Form onSubmit={(e) => void submit(e)}>
        <TextField label="Name" name="username" defaultValue={q.data.username} required maxLength={60} />
        <TextField label="Email" name="email" type="email" defaultValue={q.data.email} required />
        <TextField label="About you" multiline name="bio" defaultValue={q.data.bio} maxLength={500} rows={4} />
        {status && <p role={status.ok ? 'status' : 'alert'}>{status.text}</p>}
        <Button variant="primary" type="submit">
          Save
        </Button>
      </Form>
      <PasswordChange />
      <SessionList />
      <MailPreferencesForm />
    </PageLayout>
  );
}
