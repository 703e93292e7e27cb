/**
 * The event order's rules, apart from storage and HTTP: who sees which view, when an order is
 * closed or may be cancelled, its progress bar, and its fees. Pure functions, unit-tested.
 */
import { EVENT_ORDER_STEPS, type EventOrderStatus, type EventOrderView, type OrderInfoStatus, type ProgressStatus } from '@marketplace/shared/contract';

/** What the rules read of an order. */
export interface OrderFacts {
  client_id: number;
  photographer_id: number;
  sharing_id: string;
  public_status: EventOrderStatus;
  info_status: OrderInfoStatus | null;
  deleted: number;
}

/** The platform's share of an order's total. */
export const PLATFORM_FEE = 0.15;

/** Who is looking: the client, the photographer, a holder of the sharing link, or nobody allowed (null). */
export function viewOf(order: OrderFacts, userId: number | null, sharingId: string | undefined): EventOrderView | null {
  if (userId !== null && userId === order.client_id) return 'client';
  if (userId !== null && userId === order.photographer_id) return 'photographer';
  if (sharingId !== undefined && sharingId === order.sharing_id) return 'sharedUser';
  return null;
}

/** A party to the order (client or photographer) may change its uploads. */
export const isParty = (order: OrderFacts, userId: number) => userId === order.client_id || userId === order.photographer_id;

/** Deleted, declined or cancelled: nothing changes any more. */
export const isClosed = (order: OrderFacts) => order.deleted === 1 || order.public_status === 'DECLINED' || order.info_status === 'CANCELLED';

/** Only the client cancels, and only an order neither closed nor delivered. */
export const canCancel = (order: OrderFacts, view: EventOrderView) => view === 'client' && !isClosed(order) && order.public_status !== 'DELIVERED';

/** The progress bar: steps before the current one COMPLETED, the current one CURRENT, the rest LOCKED. */
export function progress(status: EventOrderStatus): ProgressStatus[] {
  const stepIndex = (step: (typeof EVENT_ORDER_STEPS)[number]) => EVENT_ORDER_STEPS.indexOf(step);
  // APPROVED has no step: approval is done and fulfilment is next. DECLINED stops at approval.
  const current =
    status === 'APPROVED' ? stepIndex('PENDING_FULFILLMENTS') : status === 'DECLINED' ? stepIndex('AWAITING_APPROVAL') : stepIndex(status);
  const finished = status === 'DELIVERED';
  return EVENT_ORDER_STEPS.map((statusName, i) => ({
    statusName,
    statusType: finished || i < current ? 'COMPLETED' : i === current ? 'CURRENT' : 'LOCKED',
  }));
}

/** The platform fee (rounded to the cent) and what the photographer is paid. */
export function fees(totalCents: number): { platformFeeCents: number; photographerPayoutCents: number } {
  const platformFeeCents = Math.round(totalCents * PLATFORM_FEE);
  return { platformFeeCents, photographerPayoutCents: totalCents - platformFeeCents };
}
