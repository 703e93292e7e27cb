import { useState } from 'react';
import { Button, formatMoney, type EventOrderDetails } from '@marketplace/shared';
import { CancelPopup } from './CancelPopup.js';
import { formatDate, statusLabelOf } from './labels.js';
import { OrderActionButtons } from './OrderActions.js';
import type { OrderChange } from './useOrderActions.js';
import { Panel } from './ui.js';

/**
 * The left panel: what was ordered, its status, the photographer's quote and questions, and what
 * this viewer may do now (the cancel action only in the client view, when the server offers it).
 */
export function OrderInfo({
  details,
  onCancel,
  onChange,
  onPay,
}: {
  details: EventOrderDetails;
  onCancel: () => Promise<void>;
  onChange: (change: OrderChange) => Promise<void>;
  onPay: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const info = details.eventOrderInfo;
  // SPEC.md section 6: only the client view shows the cancel action, and only when the server offers it.
  const canCancel = details.view === 'client' && info.canCancel;
  return (
    <Panel aria-labelledby="order-info">
      <h2 id="order-info">Order info</h2>
      <p role="status" data-testid="order-status">
        <strong>{statusLabelOf(details)}</strong>
      </p>
      {info.requirementsRequest && (
        <section aria-label="Requirements asked for">
          <p>
            <strong>{details.view === 'photographer' ? 'You asked' : `${info.photographer} asks`}:</strong>{' '}
            {info.requirementsRequest}
          </p>
          {info.requirementsAnswer ? (
            <p>
              <strong>{details.view === 'client' ? 'Your answer' : `${info.client} answered`}:</strong>{' '}
              {info.requirementsAnswer}
            </p>
          ) : (
            <p>No answer yet.</p>
          )}
        </section>
      )}
      <dl>
        <dt>Order</dt>
        <dd>{info.orderId}</dd>
        <dt>Event date</dt>
        <dd>{formatDate(info.eventDate)}</dd>
        <dt>Location</dt>
        <dd>{info.location}</dd>
        <dt>Package</dt>
        <dd>{info.packageName}</dd>
        <dt>Client</dt>
        <dd>{info.client}</dd>
        <dt>Photographer</dt>
        <dd>{info.photographer}</dd>
        <dt>Ordered</dt>
        <dd>{formatDate(info.createdAt)}</dd>
        {info.quote && (
          <>
            <dt>Quote</dt>
            <dd data-testid="order-quote">
              {formatMoney(info.quote.totalCents, info.quote.currency)}
              {(info.quote.discountCents > 0 || info.quote.extrasCents > 0) && (
                <>
                  {' '}
                  ({formatMoney(info.quote.packagePriceCents, info.quote.currency)} package
                  {info.quote.discountCents > 0 &&
                    `, ${formatMoney(info.quote.discountCents, info.quote.currency)} off`}
                  {info.quote.extrasCents > 0 &&
                    `, ${formatMoney(info.quote.extrasCents, info.quote.currency)} ${info.quote.extrasNote || 'extras'}`}
                  )
                </>
              )}
            </dd>
          </>
        )}
        {details.discountCode && (
          <>
            <dt>Discount code</dt>
            <dd>{details.discountCode}</dd>
          </>
        )}
      </dl>
      <OrderActionButtons details={details} onChange={onChange} onPay={onPay} />
      {canCancel && (
        <p>
          <Button onClick={() => setConfirming(true)}>Cancel order</Button>
        </p>
      )}
      {confirming && <CancelPopup onConfirm={onCancel} onClose={() => setConfirming(false)} />}
    </Panel>
  );
}
