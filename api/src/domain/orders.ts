/**
 * The event order's rules, apart from storage and HTTP: who sees which view, when an order is
 * closed or may be cancelled, its progress bar, its fees, and how it is shown to each view.
 * Pure functions, unit-tested.
 */
import {
  EVENT_ORDER_STEPS,
  type EventOrderDetails,
  type EventOrderStatus,
  type EventOrderSummary,
  type EventOrderView,
  type OrderInfoStatus,
  type ProgressStatus,
  type RequirementInfo,
  type Target,
} from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';

/** An event order as stored (repositories/orders.ts reads it). */
export interface Order {
  /** The row's key, which targets refer to. */
  rowId: number;
  orderId: string;
  sharingId: string;
  clientId: number;
  photographerId: number;
  clientName: string;
  photographerName: string;
  photographerProfileName: string;
  eventName: string;
  eventDate: string;
  location: string;
  packageName: string;
  publicStatus: EventOrderStatus;
  infoStatus: OrderInfoStatus | null;
  deleted: boolean;
  requirementInfo: RequirementInfo;
  discountCode: string | null;
  totalCents: number;
  paidOutAt: string | null;
  createdAt: string;
}

/** What the rules read of an order. */
export type OrderFacts = Pick<
  Order,
  'clientId' | 'photographerId' | 'sharingId' | 'publicStatus' | 'infoStatus' | 'deleted'
>;

/** The platform's share of an order's total. */
export const PLATFORM_FEE = 0.15;

/** Who is looking: the client, the photographer, a holder of the sharing link, or nobody allowed (null). */
export function viewOf(order: OrderFacts, userId: number | null, sharingId: string | undefined): EventOrderView | null {
  if (userId !== null && userId === order.clientId) return 'client';
  if (userId !== null && userId === order.photographerId) return 'photographer';
  if (sharingId !== undefined && sharingId === order.sharingId) return 'sharedUser';
  return null;
}

/** A party to the order (client or photographer) may change its uploads. */
export const isParty = (order: OrderFacts, userId: number) =>
  userId === order.clientId || userId === order.photographerId;

/** The party who is not `userId`: whom an upload or a cancellation is news to. */
export const otherParty = (order: OrderFacts, userId: number) =>
  userId === order.clientId ? order.photographerId : order.clientId;

/**
 * The states an order may be changed from. A change is one conditional update guarded by the
 * state it leaves (repositories/orders.ts turns a guard into its WHERE), so of requests racing to
 * change one order the database lets exactly the first through, on any number of instances; the
 * checks below read the same guards, so what a page is offered and what is done cannot disagree.
 */
export interface OrderGuard {
  /** Public statuses the order must not be in. */
  publicStatusNotIn: readonly EventOrderStatus[];
  /** Info statuses the order must not be in (an order with none passes). */
  infoStatusNotIn: readonly OrderInfoStatus[];
}

/** Open: neither deleted, declined nor cancelled. Its targets (uploads) may change. */
export const OPEN: OrderGuard = { publicStatusNotIn: ['DECLINED'], infoStatusNotIn: ['CANCELLED'] };

/** The order's status changes: the guard of the state each leaves, and the info status it sets. */
export const ORDER_TRANSITIONS = {
  /** Only the client cancels (checked by the route), and only an open order not yet delivered. */
  cancel: {
    from: { publicStatusNotIn: ['DECLINED', 'DELIVERED'], infoStatusNotIn: ['CANCELLED'] },
    to: 'CANCELLED',
  },
} as const satisfies Record<string, { from: OrderGuard; to: OrderInfoStatus }>;

export type OrderTransition = keyof typeof ORDER_TRANSITIONS;

/** Whether an order is in a state the guard lets a change leave (a deleted order never is). */
export const satisfies = (order: OrderFacts, guard: OrderGuard) =>
  !order.deleted &&
  !guard.publicStatusNotIn.includes(order.publicStatus) &&
  (order.infoStatus === null || !guard.infoStatusNotIn.includes(order.infoStatus));

/** Deleted, declined or cancelled: nothing changes any more. */
export const isClosed = (order: OrderFacts) => !satisfies(order, OPEN);

/** Only the client cancels, and only an order neither closed nor delivered. */
export const canCancel = (order: OrderFacts, view: EventOrderView) =>
  view === 'client' && satisfies(order, ORDER_TRANSITIONS.cancel.from);

/** The progress bar: steps before the current one COMPLETED, the current one CURRENT, the rest LOCKED. */
export function progress(status: EventOrderStatus): ProgressStatus[] {
  const stepIndex = (step: (typeof EVENT_ORDER_STEPS)[number]) => EVENT_ORDER_STEPS.indexOf(step);
  // APPROVED has no step: approval is done and fulfilment is next. DECLINED stops at approval.
  const current =
    status === 'APPROVED'
      ? stepIndex('PENDING_FULFILLMENTS')
      : status === 'DECLINED'
        ? stepIndex('AWAITING_APPROVAL')
        : stepIndex(status);
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

/** An order in the list of a party to it: the counterpart is the other party. */
export function summaryFor(order: Order, userId: number): EventOrderSummary {
  const asClient = order.clientId === userId;
  return {
    orderId: order.orderId,
    view: asClient ? 'client' : 'photographer',
    eventName: order.eventName,
    eventDate: order.eventDate,
    publicStatus: order.publicStatus,
    status: order.infoStatus,
    deleted: order.deleted,
    counterpart: asClient ? order.photographerName : order.clientName,
    createdAt: order.createdAt,
  };
}

/** The order page as `view` sees it: a sharing-link holder gets no sharing link and goes back to the events. */
export function detailsFor(order: Order, view: EventOrderView, targets: Target[]): EventOrderDetails {
  const party = view !== 'sharedUser';
  const { platformFeeCents, photographerPayoutCents } = fees(order.totalCents);
  return {
    view,
    deleted: order.deleted,
    backButton: party
      ? { text: 'Back to orders', link: PAGES.orders.href() }
      : { text: 'Back to events', link: PAGES.events.href() },
    statuses: progress(order.publicStatus),
    eventOrderInfo: {
      orderId: order.orderId,
      status: order.infoStatus,
      publicStatus: order.publicStatus,
      eventName: order.eventName,
      eventDate: order.eventDate,
      location: order.location,
      packageName: order.packageName,
      client: order.clientName,
      photographer: order.photographerName,
      photographerProfileName: order.photographerProfileName,
      createdAt: order.createdAt,
      canCancel: canCancel(order, view),
    },
    requirementInfo: order.requirementInfo,
    discountCode: order.discountCode,
    mediaPayoutInfo: {
      currency: 'USD',
      totalCents: order.totalCents,
      platformFeeCents,
      photographerPayoutCents,
      paidOut: order.paidOutAt !== null,
      paidOutAt: order.paidOutAt,
    },
    targets,
    sharingId: party ? order.sharingId : null,
  };
}
