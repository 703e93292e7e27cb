import { DateTime } from 'luxon';
import { DATE_FORMAT, type EventOrderDetails, type EventOrderStep, type EventOrderView } from '@marketplace/shared';

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

const ORDER_INFO_LABELS: Record<string, string> = {
  AWAITING_APPROVAL: 'Awaiting Approval',
  SECURED: 'Fulfilling Order',
  PUBLISHED: 'Delivered',
  CANCELLED: 'Order has been cancelled',
};

/**
 * SPEC.md section 4 "Order-info status": AWAITING_APPROVAL, null or absent show Awaiting
 * Approval; SECURED, PUBLISHED, CANCELLED their labels. A status this build does not know (a
 * newer server's) is shown as its words ("ON_HOLD" as "On hold") rather than as nothing.
 */
export function orderInfoLabel(status: string | null | undefined): string {
  if (!status) return ORDER_INFO_LABELS.AWAITING_APPROVAL as string;
  const known = Object.hasOwn(ORDER_INFO_LABELS, status) ? ORDER_INFO_LABELS[status] : undefined;
  if (known) return known;
  const words = status.toLowerCase().replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * SPEC.md section 4: "A declined or deleted order shows This order has been declined/cancelled".
 * Decided from the spec's fields: `deleted`, the public status, or DECLINED reached in `statuses`.
 */
export function isDeclinedOrDeleted(
  details: Pick<EventOrderDetails, 'deleted' | 'statuses' | 'eventOrderInfo'>,
): boolean {
  return (
    details.deleted ||
    details.eventOrderInfo.publicStatus === 'DECLINED' ||
    details.statuses.some((s) => s.statusName === 'DECLINED' && s.statusType !== 'LOCKED')
  );
}

/** SPEC.md section 3: MM/DD/YYYY h:mm AM/PM, in the viewer's time zone. */
export function formatDate(iso: string): string {
  const date = DateTime.fromISO(iso);
  return date.isValid ? date.toFormat(DATE_FORMAT) : '';
}
