import { useState } from 'react';
import { Button, type EventOrderDetails } from '@marketplace/shared';
import { CancelPopup } from './CancelPopup.js';
import { formatDate, orderInfoLabel } from './labels.js';
import { Panel } from './ui.js';

/** The left panel: what was ordered, its status, and (client view, when offered) the cancel action. */
export function OrderInfo({ details, onCancel }: { details: EventOrderDetails; onCancel: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const info = details.eventOrderInfo;
  // SPEC.md section 6: only the client view shows the cancel action, and only when the server offers it.
  const canCancel = details.view === 'client' && info.canCancel;
  return (
    <Panel aria-labelledby="order-info">
      <h2 id="order-info">Order info</h2>
      <p role="status" data-testid="order-status">
        <strong>{orderInfoLabel(info.status)}</strong>
      </p>
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
        {details.discountCode && (
          <>
            <dt>Discount code</dt>
            <dd>{details.discountCode}</dd>
          </>
        )}
      </dl>
      {canCancel && <Button onClick={() => setConfirming(true)}>Cancel order</Button>}
      {confirming && <CancelPopup onConfirm={onCancel} onClose={() => setConfirming(false)} />}
    </Panel>
  );
}
