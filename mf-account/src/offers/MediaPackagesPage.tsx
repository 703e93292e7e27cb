import { useState, type FormEvent } from 'react';
import {
  apiCall,
  Button,
  PAGE_DATA,
  pageQuery,
  Checkbox,
  EmptyState,
  formatMoney,
  Modal,
  TextField,
  type MediaPackage,
  type MediaPackageDraft,
  useFormErrors,
  type FieldErrors,
} from '@marketplace/shared';
import { parseMoney } from '@marketplace/shared/format';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';
import { Form } from '../ui.js';
import { Actions, ConfirmWithdraw, OfferList, RowActions, useRefreshList } from './forms.js';

const FIELDS = ['name', 'description', 'hours', 'photoCount', 'videoMinutes', 'priceCents'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string> & { active: boolean };

const centsText = (cents: number) => (cents / 100).toFixed(2);

const valuesOf = (offer: MediaPackage | null): Values => ({
  name: offer?.name ?? '',
  description: offer?.description ?? '',
  hours: offer ? String(offer.hours) : '',
  photoCount: offer ? String(offer.photoCount) : '',
  videoMinutes: offer ? String(offer.videoMinutes) : '0',
  priceCents: offer ? centsText(offer.priceCents) : '',
  active: offer?.active ?? true,
});

/** What a package includes, in one line: hours, photos, video. */
function includes(offer: MediaPackage): string {
  return [
    offer.hours ? `${offer.hours} ${offer.hours === 1 ? 'hour' : 'hours'}` : '',
    `${offer.photoCount} edited photos`,
    offer.videoMinutes ? `${offer.videoMinutes} min video` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** A photographer's media packages: every one, withdrawn ones marked, each to edit or withdraw, and a new one. */
export function MediaPackagesPage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.mediaPackages()));
  const refresh = useRefreshList('getMediaPackages');
  const [editing, setEditing] = useState<MediaPackage | 'new' | null>(null);
  const [withdrawing, setWithdrawing] = useState<MediaPackage | null>(null);
  const [status, setStatus] = useState('');
  const packages = q.data?.mediaPackages;
  return (
    <AccountPage title="Media packages" state={q}>
      <Button variant="primary" onClick={() => setEditing('new')}>
        New package
      </Button>
      <p role="status">{status}</p>
      {packages?.length === 0 ? (
        <EmptyState title="No media packages yet.">The packages you offer to clients appear here.</EmptyState>
      ) : (
        <OfferList aria-label="Your media packages">
          {packages?.map((p) => (
            <li key={p.id}>
              <div>
                <strong>{p.name}</strong> · {formatMoney(p.priceCents)}
                {!p.active && <span className="state"> · Withdrawn</span>}
              </div>
              <div className="muted">
                {includes(p)}
                {p.description ? ` — ${p.description}` : ''}
              </div>
              <RowActions
                name={p.name}
                onEdit={() => setEditing(p)}
                onWithdraw={p.active ? () => setWithdrawing(p) : undefined}
              />
            </li>
          ))}
        </OfferList>
      )}
      {editing && (
        <PackageForm
          offer={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
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
            await apiCall('withdrawMediaPackage', { id: withdrawing.id });
            setStatus(`${withdrawing.name} withdrawn`);
            await refresh();
          }}
        >
          Clients can no longer book it from your page. Orders already made keep it at their price.
        </ConfirmWithdraw>
      )}
    </AccountPage>
  );
}

function PackageForm({
  offer,
  onClose,
  onSaved,
}: {
  offer: MediaPackage | null;
  onClose: () => void;
  onSaved: (saved: MediaPackage) => void;
}) {
  const [values, setValues] = useState(() => valuesOf(offer));
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Every missing or unreadable answer at once, each beside its box.
    const found: FieldErrors<Field> = Object.fromEntries(
      (['name', 'hours', 'photoCount', 'priceCents'] as const)
        .filter((f) => !values[f].trim())
        .map((f) => [f, 'Fill this in']),
    );
    const priceCents = parseMoney(values.priceCents);
    if (priceCents === null && !found.priceCents) found.priceCents = 'Enter an amount in dollars, e.g. 250.00';
    if (!show(found) || priceCents === null) return;
    const draft: MediaPackageDraft = {
      name: values.name,
      description: values.description,
      hours: Number(values.hours),
      photoCount: Number(values.photoCount),
      ...(values.videoMinutes.trim() ? { videoMinutes: Number(values.videoMinutes) } : {}),
      priceCents,
    };
    setBusy(true);
    try {
      const { mediaPackage } = offer
        ? await apiCall('updateMediaPackage', { ...draft, id: offer.id, active: values.active })
        : await apiCall('createMediaPackage', draft);
      onSaved(mediaPackage);
    } catch (error) {
      fail(error, 'The package could not be saved: try again');
      setBusy(false);
    }
  };

  return (
    <Modal title={offer ? `Edit ${offer.name}` : 'New package'} onClose={busy ? undefined : onClose} width={520}>
      <Form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <TextField label="Name" value={values.name} maxLength={80} onChange={set('name')} error={errorOf('name')} />
        <TextField
          label="What is included"
          multiline
          rows={3}
          value={values.description}
          maxLength={1000}
          onChange={set('description')}
          error={errorOf('description')}
        />
        <TextField
          label="Hours of coverage"
          inputMode="numeric"
          value={values.hours}
          onChange={set('hours')}
          error={errorOf('hours')}
        />
        <TextField
          label="Edited photos"
          inputMode="numeric"
          value={values.photoCount}
          onChange={set('photoCount')}
          error={errorOf('photoCount')}
        />
        <TextField
          label="Video minutes (optional)"
          inputMode="numeric"
          value={values.videoMinutes}
          onChange={set('videoMinutes')}
          error={errorOf('videoMinutes')}
        />
        <TextField
          label="Price (USD)"
          inputMode="decimal"
          value={values.priceCents}
          onChange={set('priceCents')}
          error={errorOf('priceCents')}
        />
        {offer && (
          <Checkbox
            label="Offered to clients"
            checked={values.active}
            onChange={(event) => setValues({ ...values, active: event.target.checked })}
          />
        )}
        {formError && <p role="alert">{formError}</p>}
        <Actions>
          <Button type="submit" variant="primary" disabled={busy}>
            {offer ? 'Save package' : 'Create package'}
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Cancel
          </Button>
        </Actions>
      </Form>
    </Modal>
  );
}
