import { DateTime } from 'luxon';
import { DATE_FORMAT, orderStage, orderStatusLabel, type EventOrderDetails } from '@marketplace/shared';

/** The order's status as its viewer reads it: the shared table the orders list uses too. */
export function statusLabelOf(details: Pick<EventOrderDetails, 'view' | 'deleted' | 'eventOrderInfo'>): string {
  return orderStatusLabel(details.view, orderStage({ ...details.eventOrderInfo, deleted: details.deleted }));
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
