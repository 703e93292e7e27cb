import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetails } from '@marketplace/shared/test-utils';
import { formatDate, isDeclinedOrDeleted, statusLabelOf } from './labels.js';

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  process.env.TZ = zone;
});

describe('statusLabelOf', () => {
  const base = orderDetails();
  const at = (over: Partial<typeof base.eventOrderInfo>, view = base.view, deleted = false) =>
    statusLabelOf({ view, deleted, eventOrderInfo: { ...base.eventOrderInfo, ...over } });

  it('names the order as its viewer reads it, from the shared table the orders list uses', () => {
    expect(at({ publicStatus: 'AWAITING_APPROVAL', status: null })).toBe('Awaiting Approval');
    expect(at({ publicStatus: 'PENDING_FULFILLMENTS', status: 'SECURED' })).toBe('Fulfilling Order');
    expect(at({ publicStatus: 'PENDING_FULFILLMENTS', status: 'SECURED' }, 'photographer')).toBe(
      'Pending Fulfillments',
    );
    expect(at({ publicStatus: 'DELIVERED', status: 'PUBLISHED' }, 'sharedUser')).toBe('Delivered');
    expect(at({ publicStatus: 'APPROVED', status: null })).toBe('Approved, awaiting payment');
  });

  it('names a cancelled or deleted order by how it ended, whatever step it stopped at', () => {
    expect(at({ publicStatus: 'REQUIREMENTS_NEEDED', status: 'CANCELLED' })).toBe('Order has been cancelled');
    expect(at({ publicStatus: 'PENDING_FULFILLMENTS', status: 'SECURED' }, 'client', true)).toBe('Deleted');
  });
});

describe('isDeclinedOrDeleted (SPEC.md section 4)', () => {
  const base = orderDetails();
  it.each([
    ['deleted', { deleted: true }],
    ['public status DECLINED', { eventOrderInfo: { ...base.eventOrderInfo, publicStatus: 'DECLINED' as const } }],
    [
      'DECLINED reached in the statuses list',
      { statuses: [...base.statuses, { statusName: 'DECLINED' as const, statusType: 'CURRENT' as const }] },
    ],
  ])('is true for an order %s', (_what, over) => {
    expect(isDeclinedOrDeleted(orderDetails(over))).toBe(true);
  });

  it('is false for a live order, a cancelled one (shown in the info panel) and a DECLINED step not reached', () => {
    expect(isDeclinedOrDeleted(base)).toBe(false);
    expect(isDeclinedOrDeleted(orderDetails({ eventOrderInfo: { ...base.eventOrderInfo, status: 'CANCELLED' } }))).toBe(
      false,
    );
    expect(
      isDeclinedOrDeleted(
        orderDetails({ statuses: [...base.statuses, { statusName: 'DECLINED', statusType: 'LOCKED' }] }),
      ),
    ).toBe(false);
  });
});

describe('formatDate', () => {
  it('shows MM/DD/YYYY h:mm AM/PM', () => {
    expect(formatDate('2026-12-01T18:05:00Z')).toBe('12/01/2026 6:05 PM');
    expect(formatDate('2026-03-09T09:30:00Z')).toBe('03/09/2026 9:30 AM');
    expect(formatDate('not a date')).toBe('');
  });
});
