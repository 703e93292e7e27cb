import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate, orderInfoLabel } from './labels.js';

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
});

describe('formatDate', () => {
  it('shows MM/DD/YYYY h:mm AM/PM', () => {
    expect(formatDate('2026-12-01T18:05:00Z')).toBe('12/01/2026 6:05 PM');
    expect(formatDate('2026-03-09T09:30:00Z')).toBe('03/09/2026 9:30 AM');
    expect(formatDate('not a date')).toBe('');
  });
});
