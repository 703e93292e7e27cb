/**
 * The event order's rules, apart from storage, HTTP and presentation: who sees which view, the
 * state machine and why a change is refused, when an order is closed or may be cancelled, and its
 * fees. Pure functions, unit-tested; what each view is shown of an order is views/orders.ts's.
 */
import {
  ORDER_ACTIONS,
  ORDER_LINE_PREFIX,
  orderStatusLabel,
  type OrderAction,
  type OrderQuote,
  type EventOrderStatus,
  type EventOrderView,
  type OrderInfoStatus,
  type RequirementInfo,
} from '@marketplace/shared/contract';

/** An event order as stored (repositories/orders/ reads it). */
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
 * Every change is one conditional update guarded by `from` (repositories/orders/transitions.ts
 * turns it into the WHERE), and never of a deleted or cancelled order, so of requests racing to
 * change one order the database lets exactly the first through, on any number of instances.
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

/** The platform fee (rounded to the cent) and what the photographer is paid. */
export function fees(totalCents: number): { platformFeeCents: number; photographerPayoutCents: number } {
  const platformFeeCents = Math.round(totalCents * PLATFORM_FEE);
  return { platformFeeCents, photographerPayoutCents: totalCents - platformFeeCents };
}
