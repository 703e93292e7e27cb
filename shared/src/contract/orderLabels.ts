import type { EventOrderStatus, EventOrderStep, EventOrderView, OrderInfoStatus } from './eventOrder.js';

/**
 * Where an order stands, in one word: its workflow status, or how it ended outside the workflow
 * (cancelled by the client, deleted). The orders list, the progress bar and the info box all name
 * an order from this, through the label table below, so the three never disagree.
 */
export type OrderStage = EventOrderStatus | 'CANCELLED' | 'DELETED';

export function orderStage(order: {
  publicStatus: EventOrderStatus;
  status: OrderInfoStatus | null;
  deleted: boolean;
}): OrderStage {
  if (order.deleted) return 'DELETED';
  if (order.status === 'CANCELLED') return 'CANCELLED';
  return order.publicStatus;
}

/**
 * SPEC.md section 4 "Event order status" and "Order-info status", per view. The spec's labels
 * where it has them (the photographer sees Pending Requirements; a paid order is Fulfilling Order
 * to its client); APPROVED and DECLINED, which the spec leaves unnamed, say what happens next.
 */
const CLIENT_LABELS: Record<OrderStage, string> = {
  ORDER_REQUEST: 'Order Placed',
  REQUIREMENTS_NEEDED: 'Requirements Needed',
  AWAITING_APPROVAL: 'Awaiting Approval',
  APPROVED: 'Approved, awaiting payment',
  DECLINED: 'Declined',
  PENDING_FULFILLMENTS: 'Fulfilling Order',
  DELIVERED: 'Delivered',
  CANCELLED: 'Order has been cancelled',
  DELETED: 'Deleted',
};

export const ORDER_STATUS_LABELS: Record<EventOrderView, Record<OrderStage, string>> = {
  client: CLIENT_LABELS,
  sharedUser: CLIENT_LABELS,
  photographer: {
    ...CLIENT_LABELS,
    REQUIREMENTS_NEEDED: 'Pending Requirements',
    PENDING_FULFILLMENTS: 'Pending Fulfillments',
  },
};

/** A stage this build does not know (a newer server's) is shown as its words, "ON_HOLD" as "On hold". */
function wordsOf(code: string): string {
  const words = code.toLowerCase().replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The order's status as `view` reads it. */
export function orderStatusLabel(view: EventOrderView, stage: OrderStage): string {
  const labels = ORDER_STATUS_LABELS[view];
  return Object.hasOwn(labels, stage) ? labels[stage] : wordsOf(stage);
}

/** The progress bar's step names: the spec's, with the photographer's Pending Requirements. */
export function stepLabel(step: EventOrderStep, view: EventOrderView): string {
  if (step === 'PENDING_FULFILLMENTS') return 'Pending Fulfillments';
  return orderStatusLabel(view, step);
}
