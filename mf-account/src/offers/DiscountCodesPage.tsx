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
  type DiscountCode,
  type DiscountCodeDraft,
  useFormErrors,
  type FieldErrors,
} from '@marketplace/shared';
import { parseMoney } from '@marketplace/shared/format';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';
import { Form } from '../ui.js';
import { Actions, ConfirmWithdraw, OfferList, RowActions, useRefreshList } from './forms.js';

type Kind = 'percent' | 'amount';
const FIELDS = ['code', 'percentOff', 'amountOffCents', 'expiresAt', 'maxUses'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string> & { kind: Kind; active: boolean };

const valuesOf = (code: DiscountCode | null): Values => ({
  code: code?.code ?? '',
  kind: code?.amountOffCents != null ? 'amount' : 'percent',
  percentOff: code && code.amountOffCents === null ? String(code.percentOff) : '',
  amountOffCents: code?.amountOffCents != null ? (code.amountOffCents / 100).toFixed(2) : '',
  expiresAt: code?.expiresAt?.slice(0, 10) ?? '',
  maxUses: code?.maxUses != null ? String(code.maxUses) : '',
  active: code?.active ?? true,
});

/** What a code takes off, in the owner's words. */
const offText = (code: DiscountCode) =>
  code.amountOffCents !== null ? `${formatMoney(code.amountOffCents)} off` : `${code.percentOff}% off`;

/** A photographer's discount codes: every one, withdrawn ones marked, each to edit or withdraw, and a new one. */
export function DiscountCodesPage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.discountCodes()));
  const refresh = useRefreshList('getDiscountCodes');
  const [editing, setEditing] = useState<DiscountCode | 'new' | null>(null);
  const [withdrawing, setWithdrawing] = useState<DiscountCode | null>(null);
  const [status, setStatus] = useState('');
  const codes = q.data?.discountCodes;
  return (
    <AccountPage title="Discount codes" state={q}>
      <Button variant="primary" onClick={() => setEditing('new')}>
        New code
      </Button>
      <p role="status">{status}</p>
      {codes?.length === 0 ? (
        <EmptyState title="No discount codes yet.">Codes you create for your clients appear here.</EmptyState>
      ) : (
        <OfferList aria-label="Your discount codes">
          {codes?.map((d) => (
            <li key={d.id}>
              <div>
                <code>{d.code}</code> · {offText(d)}
                {!d.active && <span className="state"> · Withdrawn</span>}
              </div>
              <div className="muted">
                used {d.timesUsed} {d.maxUses !== null ? `of ${d.maxUses} ` : ''}times
                {d.expiresAt ? ` · until ${new Date(d.expiresAt).toLocaleDateString()}` : ''}
              </div>
              <RowActions
                name={d.code}
                onEdit={() => setEditing(d)}
                onWithdraw={d.active ? () => setWithdrawing(d) : undefined}
              />
            </li>
          ))}
        </OfferList>
      )}
      {editing && (
        <CodeForm
          code={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setStatus(`${saved.code} saved`);
            void refresh();
          }}
        />
      )}
      {withdrawing && (
        <ConfirmWithdraw
          title={`Withdraw ${withdrawing.code}?`}
          onClose={() => setWithdrawing(null)}
          onConfirm={async () => {
            await apiCall('withdrawDiscountCode', { id: withdrawing.id });
            setStatus(`${withdrawing.code} withdrawn`);
            await refresh();
          }}
        >
          Buyers can no longer use it, in carts and bookings alike.
        </ConfirmWithdraw>
      )}
    </AccountPage>
  );
}

function CodeForm({
  code,
  onClose,
  onSaved,
}: {
  code: DiscountCode | null;
  onClose: () => void;
  onSaved: (saved: DiscountCode) => void;
}) {
  const [values, setValues] = useState(() => valuesOf(code));
  const [busy, setBusy] = useState(false);
  // The form shows one of percent and amount: a reason about the other shows under the form.
  const shown = FIELDS.filter((f) => f !== (values.kind === 'percent' ? 'amountOffCents' : 'percentOff'));
  const { errorOf, formError, formRef, show, fail } = useFormErrors(shown);
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const off: Field = values.kind === 'percent' ? 'percentOff' : 'amountOffCents';
    // Every missing or unreadable answer at once, each beside its box.
    const found: FieldErrors<Field> = Object.fromEntries(
      (['code', off] as const).filter((f) => !values[f].trim()).map((f) => [f, 'Fill this in']),
    );
    const amountOffCents = values.kind === 'amount' ? parseMoney(values.amountOffCents) : null;
    if (values.kind === 'amount' && amountOffCents === null && !found.amountOffCents)
      found.amountOffCents = 'Enter an amount in dollars, e.g. 10.00';
    if (!show(found)) return;
    const draft: DiscountCodeDraft = {
      code: values.code,
      ...(amountOffCents === null ? { percentOff: Number(values.percentOff) } : { amountOffCents }),
      ...(values.expiresAt ? { expiresAt: values.expiresAt } : {}),
      ...(values.maxUses.trim() ? { maxUses: Number(values.maxUses) } : {}),
    };
    setBusy(true);
    try {
      const { discountCode } = code
        ? await apiCall('updateDiscountCode', { ...draft, id: code.id, active: values.active })
        : await apiCall('createDiscountCode', draft);
      onSaved(discountCode);
    } catch (error) {
      fail(error, 'The code could not be saved: try again');
      setBusy(false);
    }
  };

  return (
    <Modal title={code ? `Edit ${code.code}` : 'New code'} onClose={busy ? undefined : onClose} width={520}>
      <Form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label="Code"
          value={values.code}
          maxLength={20}
          autoCapitalize="characters"
          hint="3 to 20 letters and digits; buyers type it in any case."
          onChange={(event) => setValues({ ...values, code: event.target.value.toUpperCase() })}
          error={errorOf('code')}
        />
        <Actions role="group" aria-label="Takes off">
          {(
            [
              ['percent', 'Percent off each item'],
              ['amount', 'Amount off the total'],
            ] as const
          ).map(([kind, label]) => (
            <Button
              key={kind}
              size="small"
              variant={values.kind === kind ? 'primary' : 'secondary'}
              aria-pressed={values.kind === kind}
              onClick={() => setValues({ ...values, kind })}
            >
              {label}
            </Button>
          ))}
        </Actions>
        {values.kind === 'percent' ? (
          <TextField
            label="Percent off"
            inputMode="numeric"
            value={values.percentOff}
            onChange={set('percentOff')}
            error={errorOf('percentOff')}
          />
        ) : (
          <TextField
            label="Amount off (USD)"
            inputMode="decimal"
            value={values.amountOffCents}
            onChange={set('amountOffCents')}
            error={errorOf('amountOffCents')}
          />
        )}
        <TextField
          label="Expires (optional)"
          type="date"
          value={values.expiresAt}
          hint="Usable until the end of that day (UTC)."
          onChange={set('expiresAt')}
          error={errorOf('expiresAt')}
        />
        <TextField
          label="Maximum uses (optional)"
          inputMode="numeric"
          value={values.maxUses}
          onChange={set('maxUses')}
          error={errorOf('maxUses')}
        />
        {code && (
          <Checkbox
            label="Active"
            checked={values.active}
            onChange={(event) => setValues({ ...values, active: event.target.checked })}
          />
        )}
        {formError && <p role="alert">{formError}</p>}
        <Actions>
          <Button type="submit" variant="primary" disabled={busy}>
            {code ? 'Save code' : 'Create code'}
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Cancel
          </Button>
        </Actions>
      </Form>
    </Modal>
  );
}
