import { describe, expect, it } from 'vitest';
import { EVENT_ORDER_STATUSES, EVENT_ORDER_VIEWS } from './eventOrder.js';
import { orderStage, orderStatusLabel, stepLabel, type OrderStage } from './orderLabels.js';

describe('order status labels', () => {
  it("names each stage in each view with the spec's words", () => {
    expect(orderStatusLabel('client', 'ORDER_REQUEST')).toBe('Order Placed');
    expect(orderStatusLabel('client', 'REQUIREMENTS_NEEDED')).toBe('Requirements Needed');
    expect(orderStatusLabel('photographer', 'REQUIREMENTS_NEEDED')).toBe('Pending Requirements');
    expect(orderStatusLabel('client', 'PENDING_FULFILLMENTS')).toBe('Fulfilling Order');
    expect(orderStatusLabel('photographer', 'PENDING_FULFILLMENTS')).toBe('Pending Fulfillments');
    expect(orderStatusLabel('sharedUser', 'DELIVERED')).toBe('Delivered');
    expect(orderStatusLabel('client', 'CANCELLED')).toBe('Order has been cancelled');
    for (const view of EVENT_ORDER_VIEWS) {
      for (const stage of [...EVENT_ORDER_STATUSES, 'CANCELLED', 'DELETED'] as const) {
        // Never a raw code: every known stage has words of its own.
        expect(orderStatusLabel(view, stage)).not.toMatch(/_|^[A-Z]+$/);
      }
    }
  });

  it('tells a cancelled or deleted order from its workflow status', () => {
    expect(orderStage({ publicStatus: 'APPROVED', status: 'CANCELLED', deleted: false })).toBe('CANCELLED');
    expect(orderStage({ publicStatus: 'APPROVED', status: 'CANCELLED', deleted: true })).toBe('DELETED');
    expect(orderStage({ publicStatus: 'DELIVERED', status: 'PUBLISHED', deleted: false })).toBe('DELIVERED');
  });

  it("shows a newer server's stage as its words, and names the steps as the spec does", () => {
    expect(orderStatusLabel('client', 'ON_HOLD' as OrderStage)).toBe('On hold');
    expect(orderStatusLabel('client', 'toString' as OrderStage)).toBe('Tostring');
    expect(stepLabel('PENDING_FULFILLMENTS', 'client')).toBe('Pending Fulfillments');
    expect(stepLabel('REQUIREMENTS_NEEDED', 'photographer')).toBe('Pending Requirements');
    expect(stepLabel('ORDER_REQUEST', 'sharedUser')).toBe('Order Placed');
  });
});
