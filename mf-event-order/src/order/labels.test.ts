import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetails } from '@marketplace/shared/test-utils';
import { formatDate, isDeclinedOrDeleted, orderInfoLabel } from './labels.js';

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  process.env.TZ = zone;
});

describe('orderInfoLabel (SPEC.md section 4)', () => {
  it.each([
    [null, 'Awaiting Approval'],
    ['AWAITING_APPROVAL', 'Awaiting Approval'],
    ['SECURED', 'Fulfilling Order'],
    ['PUBLISHED', 'Delivered'],
    ['CANCELLED', 'Order has been cancelled'],
  ] as const)('%s shows %s', (status, label) => {
    expect(orderInfoLabel(status)).toBe(label);
  });

  it('shows Awaiting Approval for a status that is undefined or absent', () => {
    expect(orderInfoLabel(undefined)).toBe('Awaiting Approval');
    const { status: _absent, ...withoutStatus } = orderDetails().eventOrderInfo;
    expect(orderInfoLabel((withoutStatus as { status?: string }).status)).toBe('Awaiting Approval');
    expect(orderInfoLabel('')).toBe('Awaiting Approval');
  });

  it('shows a status it does not know as words instead of an empty label', () => {
    expect(orderInfoLabel('ON_HOLD')).toBe('On hold');
    expect(orderInfoLabel('REFUNDED')).toBe('Refunded');
    expect(orderInfoLabel('toString')).toBe('Tostring');
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
