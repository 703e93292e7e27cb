import { useState } from 'react';
import { ApiError, Button, formatMoney, type EventOrderDetails, type OrderAction } from '@marketplace/shared';
import type { OrderChange } from './useOrderActions.js';
import { ConfirmForm } from './ConfirmForm.js';
import { Row } from './FormModal.js';
import { QuoteForm } from './QuoteForm.js';
import { TextForm } from './TextForm.js';

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
