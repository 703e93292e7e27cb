import { useState, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  ApiError,
  Button,
  formatMoney,
  Modal,
  parseMoney,
  TextField,
  theme,
  useFormErrors,
  type EventOrderDetails,
  type OrderAction,
} from '@marketplace/shared';
import type { OrderChange } from './useOrderActions.js';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

const Form = styled.form`
  display: grid;
  gap: ${theme.space.md};
`;

/** The fields of the order's forms: a reason about any other (the order, the action) is the form's. */
const FORM_FIELDS = [
  'message',
  'answer',
  'reason',
  'packagePriceCents',
  'discountCents',
  'extrasCents',
  'extrasNote',
] as const;
type FormField = (typeof FORM_FIELDS)[number];

/** Sends a change once at a time and keeps its failure for the form to show. */
function useSend(onChange: (change: OrderChange) => Promise<void>, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, show, fail } = useFormErrors(FORM_FIELDS);
  const send = async (change: OrderChange) => {
    setBusy(true);
    show({});
    try {
      await onChange(change);
      onDone();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, send, errorOf, formError, show };
}

function FormModal({
  title,
  submit,
  busy,
  formError,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submit: string;
  busy: boolean;
  formError: string | null;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} onClose={busy ? undefined : onClose} width={480}>
      <Form
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {formError && <p role="alert">{formError}</p>}
        <Row>
          <Button type="submit" variant="primary" disabled={busy}>
            {submit}
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Back
          </Button>
        </Row>
      </Form>
    </Modal>
  );
}

/** A form of one text: the request for requirements, the answer, the reason to decline. */
function TextForm({
  title,
  label,
  submit,
  toChange,
  field,
  onChange,
  onClose,
}: {
  title: string;
  label: string;
  submit: string;
  toChange: (text: string) => OrderChange;
  field: FormField;
  onChange: (change: OrderChange) => Promise<void>;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const { busy, send, errorOf, formError, show } = useSend(onChange, onClose);
  return (
    <FormModal
      title={title}
      submit={submit}
      busy={busy}
      formError={formError}
      onClose={onClose}
      onSubmit={() => (text.trim() ? void send(toChange(text)) : show({ [field]: 'Write something first' }))}
    >
      <TextField
        multiline
        rows={4}
        label={label}
        value={text}
        maxLength={1000}
        onChange={(e) => setText(e.target.value)}
        error={errorOf(field)}
      />
    </FormModal>
  );
}

const MONEY_FIELDS = ['packagePriceCents', 'discountCents', 'extrasCents'] as const;
type MoneyField = (typeof MONEY_FIELDS)[number];
const MONEY_LABELS: Record<MoneyField, string> = {
  packagePriceCents: 'Package price ($)',
  discountCents: 'Discount ($)',
  extrasCents: 'Extras ($)',
};

/** The photographer's quote: package price less discount plus extras, its total shown as it is typed. */
function QuoteForm({
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

/** A change with nothing to fill in, confirmed first: approving a quote, delivering. */
function ConfirmForm({
  title,
  text,
  submit,
  change,
  onChange,
  onClose,
}: {
  title: string;
  text: string;
  submit: string;
  change: OrderChange;
  onChange: (change: OrderChange) => Promise<void>;
  onClose: () => void;
}) {
  const { busy, send, formError } = useSend(onChange, onClose);
  return (
    <FormModal
      title={title}
      submit={submit}
      busy={busy}
      formError={formError}
      onClose={onClose}
      onSubmit={() => void send(change)}
    >
      <p>{text}</p>
    </FormModal>
  );
}

/** The buttons of each action, in the order they are offered; cancel has its own popup (OrderInfo). */
const BUTTONS: Partial<Record<OrderAction, { label: string; variant: 'primary' | 'secondary' }>> = {
  approve: { label: 'Approve quote', variant: 'primary' },
  pay: { label: 'Pay', variant: 'primary' },
  answerRequirements: { label: 'Answer', variant: 'primary' },
  sendQuote: { label: 'Send quote', variant: 'primary' },
  deliver: { label: 'Mark delivered', variant: 'primary' },
  askRequirements: { label: 'Ask for requirements', variant: 'secondary' },
  decline: { label: 'Decline', variant: 'secondary' },
};

/**
 * What this viewer may do to the order now, as the API lists it (`eventOrderInfo.actions`, from
 * the one transition table): a button each, and a form for the changes that carry data.
 */
export function OrderActionButtons({
  details,
  onChange,
  onPay,
}: {
  details: EventOrderDetails;
  onChange: (change: OrderChange) => Promise<void>;
  onPay: () => Promise<void>;
}) {
  const [open, setOpen] = useState<OrderAction | null>(null);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const pay = () => {
    setPaying(true);
    setPayError(null);
    // Success leaves the page for the payment page; only a failure comes back here.
    onPay().then(
      () => setPaying(false),
      (error: unknown) => {
        setPayError(error instanceof ApiError ? error.message : 'That did not work: try again');
        setPaying(false);
      },
    );
  };
  const offered = (Object.keys(BUTTONS) as OrderAction[]).filter((a) => details.eventOrderInfo.actions.includes(a));
  if (offered.length === 0) return null;
  const close = () => setOpen(null);
  const quote = details.eventOrderInfo.quote;
  return (
    <>
      <Row>
        {offered.map((action) => {
          const button = BUTTONS[action];
          if (!button) return null;
          if (action === 'pay') {
            return (
              <Button key={action} variant={button.variant} disabled={paying} onClick={pay}>
                {quote ? `Pay ${formatMoney(quote.totalCents, quote.currency)}` : button.label}
              </Button>
            );
          }
          return (
            <Button key={action} variant={button.variant} onClick={() => setOpen(action)}>
              {action === 'sendQuote' && quote ? 'Send a new quote' : button.label}
            </Button>
          );
        })}
      </Row>
      {payError && <p role="alert">{payError}</p>}
      {open === 'askRequirements' && (
        <TextForm
          title="Ask the client for requirements"
          label="What do you need to know?"
          submit="Send"
          field="message"
          toChange={(message) => ({ action: 'askRequirements', message })}
          onChange={onChange}
          onClose={close}
        />
      )}
      {open === 'answerRequirements' && (
        <TextForm
          title="Answer the photographer"
          label={details.eventOrderInfo.requirementsRequest ?? 'Your answer'}
          submit="Send answer"
          field="answer"
          toChange={(answer) => ({ action: 'answerRequirements', answer })}
          onChange={onChange}
          onClose={close}
        />
      )}
      {open === 'decline' && (
        <TextForm
          title="Decline this order"
          label="Why? The client reads this."
          submit="Decline the order"
          field="reason"
          toChange={(reason) => ({ action: 'decline', reason })}
          onChange={onChange}
          onClose={close}
        />
      )}
      {open === 'sendQuote' && <QuoteForm details={details} onChange={onChange} onClose={close} />}
      {open === 'approve' && (
        <ConfirmForm
          title="Approve this quote?"
          text={`You agree to pay ${quote ? formatMoney(quote.totalCents, quote.currency) : 'the quoted total'} for this order.`}
          submit="Approve"
          change={{ action: 'approve', ...(quote && { quoteSentAt: quote.sentAt }) }}
          onChange={onChange}
          onClose={close}
        />
      )}
      {open === 'deliver' && (
        <ConfirmForm
          title="Mark this order delivered?"
          text="The client is told, and can view and download what you uploaded."
          submit="Mark delivered"
          change={{ action: 'deliver' }}
          onChange={onChange}
          onClose={close}
        />
      )}
    </>
  );
}
