import { DateTime } from 'luxon';
import type { EventOrderStep, EventOrderView, OrderInfoStatus } from '@marketplace/shared';

/** SPEC.md section 4 "Event order status": the progress bar's labels; the photographer sees Pending Requirements. */
export function stepLabel(step: EventOrderStep, view: EventOrderView): string {
  switch (step) {
    case 'ORDER_REQUEST':
      return 'Order Placed';
    case 'REQUIREMENTS_NEEDED':
      return view === 'photographer' ? 'Pending Requirements' : 'Requirements Needed';
    case 'AWAITING_APPROVAL':
      return 'Awaiting Approval';
    case 'PENDING_FULFILLMENTS':
      return 'Pending Fulfillments';
    case 'DELIVERED':
      return 'Delivered';
  }
}

/** SPEC.md section 4 "Order-info status": AWAITING_APPROVAL or none, SECURED, PUBLISHED, CANCELLED. */
export function orderInfoLabel(status: OrderInfoStatus | null): string {
  switch (status) {
    case 'SECURED':
      return 'Fulfilling Order';
    case 'PUBLISHED':
      return 'Delivered';
    case 'CANCELLED':
      return 'Order has been cancelled';
    case 'AWAITING_APPROVAL':
    case null:
      return 'Awaiting Approval';
  }
}

/** SPEC.md section 3: MM/DD/YYYY h:mm AM/PM, in the viewer's time zone. */
export function formatDate(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat('MM/dd/yyyy h:mm a') : '';
}

export const money = (cents: number, currency = 'USD') => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
