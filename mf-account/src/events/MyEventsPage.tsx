import { useState, type FormEvent } from 'react';
import {
  ApiError,
  apiCall,
  Button,
  PAGE_DATA,
  pageQuery,
  EmptyState,
  eventTimeFromInput,
  eventTimeInput,
  FileField,
  formatEventTime,
  Link,
  Modal,
  PAGES,
  sendUpload,
  TextField,
  type EventDraft,
  type FieldErrors,
  type OwnEvent,
  useFormErrors,
} from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
import { Actions, ConfirmWithdraw, OfferList, RowActions, useRefreshList } from '../offers/forms.js';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';
import { Form } from '../ui.js';

/** The form's fields, as the API names them in a refusal; `cover` is the file's (the API's `contentType`). */
const FIELDS = ['name', 'startsAt', 'location', 'description', 'cover'] as const;
type Field = Exclude<(typeof FIELDS)[number], 'cover'>;

/** How often the list asks again while a cover is being made (a picture takes a second or two). */
const PROCESSING_POLL_MS = 2000;

const valuesOf = (event: OwnEvent | null): Record<Field, string> => ({
  name: event?.name ?? '',
  startsAt: event ? eventTimeInput(event.startsAt) : '',
  location: event?.location ?? '',
  description: event?.description ?? '',
});

/** An organizer's events, drafts too: each to edit, publish or withdraw, and a new one. */
export function MyEventsPage() {
  const q = useAccountQuery({
    ...pageQuery(PAGE_DATA.myEvents()),
    // A cover uploaded is made by the media pipeline: the list looks again until it is there.
    refetchInterval: (query) => (query.state.data?.events.some((e) => e.coverProcessing) ? PROCESSING_POLL_MS : false),
  });
  const refresh = useRefreshList('getMyEvents');
  const [editing, setEditing] = useState<OwnEvent | 'new' | null>(null);
  const [withdrawing, setWithdrawing] = useState<OwnEvent | null>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const events = q.data?.events;

  const publish = async (event: OwnEvent) => {
    setFailure('');
    try {
      await apiCall('setEventPublished', { eventIdentifier: event.eventIdentifier, published: true });
      setStatus(`${event.name} published`);
      await refresh();
    } catch (error) {
      setFailure(messageOf(error, 'Publishing failed: try again'));
    }
  };

  return (
    <AccountPage title="Your events" state={q}>
      <Button variant="primary" onClick={() => setEditing('new')}>
        New event
      </Button>
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
      {events?.length === 0 ? (
        <EmptyState title="No events yet.">Events you organize appear here.</EmptyState>
      ) : (
        <OfferList aria-label="Your events">
          {events?.map((e) => (
            <li key={e.eventIdentifier}>
              <div>
                <Link to={PAGES.event.href({ eventIdentifier: e.eventIdentifier })}>{e.name}</Link>
                <span className="state"> · {e.published ? 'Published' : 'Draft'}</span>
                {e.coverProcessing && <span className="state"> · Cover: Processing…</span>}
              </div>
              <div className="muted">
                <time dateTime={e.startsAt}>{formatEventTime(e.startsAt)}</time> · {e.location}
              </div>
              <RowActions
                name={e.name}
                onEdit={() => setEditing(e)}
                onWithdraw={e.published ? () => setWithdrawing(e) : undefined}
                more={
                  !e.published && (
                    <Button
                      variant="ghost"
                      size="small"
                      aria-label={`Publish ${e.name}`}
                      onClick={() => void publish(e)}
                    >
                      Publish
                    </Button>
                  )
                }
              />
            </li>
          ))}
        </OfferList>
      )}
      {editing && (
        <EventForm
          event={editing === 'new' ? null : editing}
          onClose={() => {
            setEditing(null);
            void refresh();
          }}
          onSaved={(saved) => {
            setEditing(null);
            setStatus(`${saved.name} saved`);
            void refresh();
          }}
        />
      )}
      {withdrawing && (
        <ConfirmWithdraw
          title={`Withdraw ${withdrawing.name}?`}
          onClose={() => setWithdrawing(null)}
          onConfirm={async () => {
            await apiCall('setEventPublished', { eventIdentifier: withdrawing.eventIdentifier, published: false });
            setStatus(`${withdrawing.name} withdrawn`);
            await refresh();
          }}
        >
          Its page leaves the events list and search, and only you can open it, until you publish it again.
        </ConfirmWithdraw>
      )}
    </AccountPage>
  );
}

function EventForm({
  event,
  onClose,
  onSaved,
}: {
  event: OwnEvent | null;
  onClose: () => void;
  onSaved: (saved: OwnEvent) => void;
}) {
  const [values, setValues] = useState(() => valuesOf(event));
  const [cover, setCover] = useState<File | null>(null);
  // Once saved (a new event whose cover then failed), a second try edits it rather than making another.
  const [saved, setSaved] = useState<OwnEvent | null>(event);
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const set = (field: Field) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // Every missing answer at once, each beside its box.
    const found: FieldErrors<Field> = Object.fromEntries(
      (['name', 'startsAt', 'location'] as const).filter((f) => !values[f].trim()).map((f) => [f, 'Fill this in']),
    );
    if (!show(found)) return;
    const draft: EventDraft = {
      name: values.name,
      startsAt: eventTimeFromInput(values.startsAt),
      location: values.location,
      description: values.description,
    };
    setBusy(true);
    let result: OwnEvent;
    try {
      result = saved
        ? (await apiCall('updateEvent', { ...draft, eventIdentifier: saved.eventIdentifier })).event
        : (await apiCall('createEvent', draft)).event;
      setSaved(result);
    } catch (error) {
      fail(error, 'The event could not be saved: try again');
      setBusy(false);
      return;
    }
    if (cover) {
      try {
        // The same upload as an order's files: to the store (or the API's upload target), then the media job.
        const upload = await apiCall('uploadEventCover', {
          eventIdentifier: result.eventIdentifier,
          contentType: cover.type,
        });
        await sendUpload(upload, cover, cover.type);
      } catch (error) {
        show({ cover: error instanceof ApiError ? error.message : 'The cover could not be uploaded: try again' });
        setBusy(false);
        return;
      }
    }
    onSaved(result);
  };

  const coverError = errorOf('cover');
  return (
    <Modal title={event ? `Edit ${event.name}` : 'New event'} onClose={busy ? undefined : onClose} width={520}>
      <Form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Name"
          name="name"
          value={values.name}
          onChange={set('name')}
          maxLength={120}
          required
          error={errorOf('name')}
        />
        <TextField
          label="Date and time"
          name="startsAt"
          type="datetime-local"
          value={values.startsAt}
          onChange={set('startsAt')}
          required
          hint="At the venue's local time."
          error={errorOf('startsAt')}
        />
        <TextField
          label="Location"
          name="location"
          value={values.location}
          onChange={set('location')}
          maxLength={200}
          required
          error={errorOf('location')}
        />
        <TextField
          label="Description"
          name="description"
          multiline
          rows={4}
          value={values.description}
          onChange={set('description')}
          maxLength={2000}
          error={errorOf('description')}
        />
        <div>
          <FileField
            label={cover ? `Cover: ${cover.name}` : 'Choose a cover picture'}
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-describedby={coverError ? 'event-cover-error' : undefined}
            aria-invalid={coverError ? true : undefined}
            onFiles={([file]) => setCover(file ?? null)}
          />
          {coverError && (
            <p className="error" id="event-cover-error" role="alert">
              {coverError}
            </p>
          )}
        </div>
        {formError && <p role="alert">{formError}</p>}
        <Actions>
          <Button variant="primary" type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Cancel
          </Button>
        </Actions>
      </Form>
    </Modal>
  );
}
