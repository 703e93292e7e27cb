import { describe, expect, it } from 'vitest';
import { progress } from './orders.js';

const LETTER = { COMPLETED: 'D', CURRENT: 'C', LOCKED: 'L' } as const;
const types = (status: Parameters<typeof progress>[0]) => progress(status).map((s) => LETTER[s.statusType]).join('');

describe('progress', () => {
  it('completes the steps before the current one and locks the rest', () => {
    expect(types('ORDER_REQUEST')).toBe('CLLLL');
    expect(types('REQUIREMENTS_NEEDED')).toBe('DCLLL');
    expect(types('AWAITING_APPROVAL')).toBe('DDCLL');
  });

  it('puts APPROVED on fulfilment, DECLINED on approval, and completes every step when DELIVERED', () => {
    expect(progress('APPROVED').find((s) => s.statusType === 'CURRENT')?.statusName).toBe('PENDING_FULFILLMENTS');
    expect(progress('DECLINED').find((s) => s.statusType === 'CURRENT')?.statusName).toBe('AWAITING_APPROVAL');
    expect(progress('DELIVERED').every((s) => s.statusType === 'COMPLETED')).toBe(true);
  });
});
