/**
 * The event order's rules, apart from storage and HTTP: who sees which view, when an order is
 * closed or may be cancelled, its progress bar, its fees, and how it is shown to each view.
 * Pure functions, unit-tested.
 */
import {
  EVENT_ORDER_STEPS,
  ORDER_ACTIONS,
  ORDER_LINE_PREFIX,
  orderStatusLabel,
  type OrderAction,
  type OrderQuote,
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
  quote: OrderQuote | null;
  requirementsRequest: string | null;
  requirementsAnswer: string | null;
  declineReason: string | null;
}

/** What the rules read of an order. */
export type OrderFacts = Pick<
  Order,
  'clientId' | 'photographerId' | 'sharingId' | 'publicStatus' | 'infoStatus' | 'deleted'
>;

/** Orders are priced in US dollars, as the demo's packages are. */
export const CURRENCY = 'USD';

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

/** Who makes a change: a party to the order, or the payment provider's confirmation. */
export type Actor = 'client' | 'photographer' | 'payment';

/**
 * One change of an order's state: who makes it, from which workflow statuses, and what it sets.
 * `to` is the workflow status after (absent: unchanged); `info` the order-info status it sets.
 */
export interface OrderTransitionRule {
  by: Actor;
  from: readonly EventOrderStatus[];
  to?: EventOrderStatus;
  info?: OrderInfoStatus;
}

/**
 * The order's state machine, one table for both sides (docs/order-lifecycle.md draws it).
 *
 * A request is placed (ORDER_REQUEST). The photographer may ask for requirements, which the client
 * answers; sends a quote, which the client approves (APPROVED) and pays through checkout (the
 * provider's confirmation makes it PENDING_FULFILLMENTS, SECURED); and delivers (DELIVERED,
 * PUBLISHED). The photographer may decline before the quote is approved; the client may cancel
 * until it is paid (a paid order would need a refund, which the platform does not make).
 *
 * Every change is one conditional update guarded by `from` (repositories/orders.ts turns it into
 * the WHERE), and never of a deleted or cancelled order, so of requests racing to change one order
 * the database lets exactly the first through, on any number of instances.
 */
export const ORDER_TRANSITIONS = {
  askRequirements: { by: 'photographer', from: ['ORDER_REQUEST', 'AWAITING_APPROVAL'], to: 'REQUIREMENTS_NEEDED' },
  answerRequirements: { by: 'client', from: ['REQUIREMENTS_NEEDED'] },
  sendQuote: {
    by: 'photographer',
    from: ['ORDER_REQUEST', 'REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL'],
    to: 'AWAITING_APPROVAL',
  },
  decline: { by: 'photographer', from: ['ORDER_REQUEST', 'REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL'], to: 'DECLINED' },
  approve: { by: 'client', from: ['AWAITING_APPROVAL'], to: 'APPROVED' },
  pay: { by: 'payment', from: ['APPROVED'], to: 'PENDING_FULFILLMENTS', info: 'SECURED' },
  deliver: { by: 'photographer', from: ['PENDING_FULFILLMENTS'], to: 'DELIVERED', info: 'PUBLISHED' },
  cancel: {
    by: 'client',
    from: ['ORDER_REQUEST', 'REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL', 'APPROVED'],
    info: 'CANCELLED',
  },
} as const satisfies Record<OrderAction | 'pay', OrderTransitionRule>;

export type OrderTransition = keyof typeof ORDER_TRANSITIONS;

/** Whether the order is in a state `name` may leave (never a deleted or cancelled one). */
export const inFromState = (order: OrderFacts, name: OrderTransition) =>
  !order.deleted &&
  order.infoStatus !== 'CANCELLED' &&
  (ORDER_TRANSITIONS[name].from as readonly EventOrderStatus[]).includes(order.publicStatus);

/** What `actor` may do to the order now; the client is offered to pay where a payment may secure it. */
export const actionsFor = (order: OrderFacts, actor: EventOrderView): OrderAction[] =>
  ORDER_ACTIONS.filter(
    (name) =>
      (ORDER_TRANSITIONS[name].by === actor || (name === 'pay' && actor === 'client')) && inFromState(order, name),
  );

/** The purchase line of an order's payment, and the order a line pays for (null: a content item). */
export const orderLineOf = (orderId: string) => `${ORDER_LINE_PREFIX}${orderId}`;
export const orderIdOfLine = (identifier: string) =>
  identifier.startsWith(ORDER_LINE_PREFIX) ? identifier.slice(ORDER_LINE_PREFIX.length) : null;

/**
 * Why `actor` may not make the change now, in words for them; null when they may. The same
 * reason answers a request that lost a race (the order moved meanwhile).
 */
export function refusalOf(order: OrderFacts, name: OrderTransition, actor: Actor | 'sharedUser'): string | null {
  const rule: OrderTransitionRule = ORDER_TRANSITIONS[name];
  if (rule.by !== actor) {
    return rule.by === 'client'
      ? 'Only the client can do this'
      : rule.by === 'photographer'
        ? 'Only the photographer can do this'
        : 'Only a confirmed payment can do this';
  }
  if (inFromState(order, name)) return null;
  if (order.deleted) return 'This order was deleted';
  if (order.infoStatus === 'CANCELLED') return 'This order was cancelled';
  if (order.publicStatus === 'DECLINED') return 'This order was declined';
  if (name === 'cancel') return 'This order can no longer be cancelled';
  const label = orderStatusLabel(actor === 'photographer' ? 'photographer' : 'client', order.publicStatus);
  return `This order is "${label}" now, so it cannot be ${DONE[name]}`;
}

/** Each change as the order undergoes it, for refusals. */
const DONE: Record<OrderTransition, string> = {
  askRequirements: 'sent back for requirements',
  answerRequirements: 'given requirements',
  sendQuote: 'quoted',
  decline: 'declined',
  approve: 'approved',
  pay: 'paid',
  deliver: 'delivered',
  cancel: 'cancelled',
};

/** Deleted, declined or cancelled: nothing changes any more. */
export const isClosed = (order: OrderFacts) =>
  order.deleted || order.infoStatus === 'CANCELLED' || order.publicStatus === 'DECLINED';

/**
 * Why `view` may not add (or change its own) file now, or null when it may: the client adds reference files while
 * the order is open; the photographer adds deliverables once it is paid, until it is delivered.
 */
export function uploadRefusal(order: OrderFacts, view: EventOrderView): string | null {
  if (view === 'sharedUser') return 'You are not allowed to change this order';
  if (isClosed(order)) return 'This order is closed: its files can no longer change';
  if (view === 'photographer' && order.publicStatus !== 'PENDING_FULFILLMENTS')
    return 'Deliverables are added and changed once the order is paid, until it is delivered';
  return null;
}

/** Only the client cancels, and only an order not yet paid or ended. */
export const canCancel = (order: OrderFacts, view: EventOrderView) => view === 'client' && inFromState(order, 'cancel');

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

/** The states of an order its client has paid for (the webhook's `pay` moved it on). */
const PAID_STATUSES: readonly EventOrderStatus[] = ['PENDING_FULFILLMENTS', 'DELIVERED'];

/** The platform fee (rounded to the cent) and what the photographer is paid. */
export function fees(totalCents: number): { platformFeeCents: number; photographerPayoutCents: number } {
  const platformFeeCents = Math.round(totalCents * PLATFORM_FEE);
  return { platformFeeCents, photographerPayoutCents: totalCents - platformFeeCents };
}

/** An order in the list of a party to it: the counterpart is the other party. */
export function summaryFor(order: Order, userId: number, thumbnailUrl: string | null = null): EventOrderSummary {
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
    packageName: order.packageName,
    currency: CURRENCY,
    totalCents: order.totalCents,
    createdAt: order.createdAt,
    thumbnailUrl,
  };
}

/** The order page as `view` sees it: a sharing-link holder gets no sharing link and goes back to the events. */
export function detailsFor(
  order: Order,
  view: EventOrderView,
  targets: Target[],
  deliverablesZipUrl: string | null = null,
): EventOrderDetails {
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
      actions: actionsFor(order, view),
      // The terms between the parties are theirs: a sharing-link holder sees the event and what
      // was delivered, not the price, the requirements or why anything was asked or declined.
      quote: party ? order.quote : null,
      requirementsRequest: party ? order.requirementsRequest : null,
      requirementsAnswer: party ? order.requirementsAnswer : null,
      declineReason: party ? order.declineReason : null,
    },
    requirementInfo: party ? order.requirementInfo : { summary: '', items: [] },
    discountCode: party ? order.discountCode : null,
    payment: party
      ? { currency: CURRENCY, totalCents: order.totalCents, paid: PAID_STATUSES.includes(order.publicStatus) }
      : null,
    mediaPayoutInfo:
      view === 'photographer'
        ? {
            currency: CURRENCY,
            totalCents: order.totalCents,
            platformFeeCents,
            photographerPayoutCents,
            paidOut: order.paidOutAt !== null,
            paidOutAt: order.paidOutAt,
          }
        : null,
    targets,
    sharingId: party ? order.sharingId : null,
    canUpload: uploadRefusal(order, view) === null,
    deliverablesZipUrl: party ? deliverablesZipUrl : null,
  };
}
