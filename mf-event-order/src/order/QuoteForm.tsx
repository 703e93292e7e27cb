import { useState } from 'react';
import { formatMoney, parseMoney, TextField, type EventOrderDetails } from '@marketplace/shared';
import type { OrderChange } from './useOrderActions.js';
import { FormModal } from './FormModal.js';
import { useSend } from './useSend.js';

const MONEY_FIELDS = ['packagePriceCents', 'discountCents', 'extrasCents'] as const;
type MoneyField = (typeof MONEY_FIELDS)[number];
const MONEY_LABELS: Record<MoneyField, string> = {
  packagePriceCents: 'Package price ($)',
  discountCents: 'Discount ($)',
  extrasCents: 'Extras ($)',
};

/** The photographer's quote: package price less discount plus extras, its total shown as it is typed. */
export function QuoteForm({
  details,
  onChange,
  onClose,
}: {
  details: EventOrderDetails;
  onChange: (change: OrderChange) => Promise<void>;
  onClose: () => void;
}) {
  const last = details.eventOrderInfo.quote;
  const cents = (value: number) => formatMoney(value).replace(/^\$/, '').replaceAll(',', '');
  const [amounts, setAmounts] = useState<Record<MoneyField, string>>({
    packagePriceCents: cents(last?.packagePriceCents ?? details.mediaPayoutInfo?.totalCents ?? 0),
    discountCents: cents(last?.discountCents ?? 0),
    extrasCents: cents(last?.extrasCents ?? 0),
  });
  const [extrasNote, setExtrasNote] = useState(last?.extrasNote ?? '');
  const { busy, send, errorOf, formError, show } = useSend(onChange, onClose);
  const parsed = Object.fromEntries(MONEY_FIELDS.map((f) => [f, parseMoney(amounts[f])])) as Record<
    MoneyField,
    number | null
  >;
  const total =
    parsed.packagePriceCents !== null && parsed.discountCents !== null && parsed.extrasCents !== null
      ? parsed.packagePriceCents - parsed.discountCents + parsed.extrasCents
      : null;
  const submit = () => {
    const { packagePriceCents, discountCents, extrasCents } = parsed;
    if (packagePriceCents === null || discountCents === null || extrasCents === null) {
      // Each amount that is not one, beside its box.
      show(
        Object.fromEntries(
          MONEY_FIELDS.filter((f) => parsed[f] === null).map((f) => [
            f,
            'Enter an amount in dollars, like 250 or 99.50',
          ]),
        ),
      );
      return;
    }
    void send({ action: 'sendQuote', packagePriceCents, discountCents, extrasCents, extrasNote });
  };
  return (
    <FormModal
      title="Send a quote"
      submit="Send quote"
      busy={busy}
      formError={formError}
      onClose={onClose}
      onSubmit={submit}
    >
      {MONEY_FIELDS.map((field) => (
        <TextField
          key={field}
          label={MONEY_LABELS[field]}
          inputMode="decimal"
          value={amounts[field]}
          onChange={(e) => setAmounts({ ...amounts, [field]: e.target.value })}
          error={errorOf(field)}
        />
      ))}
      <TextField
        label="What the extras are"
        value={extrasNote}
        maxLength={200}
        onChange={(e) => setExtrasNote(e.target.value)}
        error={errorOf('extrasNote')}
      />
      <p>
        Total: <strong data-testid="quote-total">{total === null || total < 0 ? '—' : formatMoney(total)}</strong>
      </p>
    </FormModal>
  );
}
