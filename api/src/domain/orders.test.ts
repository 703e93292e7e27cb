import { describe, expect, it } from 'vitest';
import { canCancel, fees, isClosed, isParty, progress, viewOf, type OrderFacts } from './orders.js';

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

const order = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  client_id: 1,
  photographer_id: 2,
  sharing_id: 'share',
  public_status: 'AWAITING_APPROVAL',
  info_status: null,
  deleted: 0,
  ...over,
});

describe('views', () => {
  it('gives the client, the photographer and a sharing-link holder their views, and nobody else one', () => {
    expect(viewOf(order(), 1, undefined)).toBe('client');
    expect(viewOf(order(), 2, 'share')).toBe('photographer');
    expect(viewOf(order(), 3, 'share')).toBe('sharedUser');
    expect(viewOf(order(), null, 'share')).toBe('sharedUser');
    expect(viewOf(order(), 3, 'other')).toBeNull();
    expect(viewOf(order(), null, undefined)).toBeNull();
    expect(isParty(order(), 2)).toBe(true);
    expect(isParty(order(), 3)).toBe(false);
  });
});

describe('closing and cancelling', () => {
  it('closes a deleted, declined or cancelled order', () => {
    expect(isClosed(order())).toBe(false);
    expect(isClosed(order({ deleted: 1 }))).toBe(true);
    expect(isClosed(order({ public_status: 'DECLINED' }))).toBe(true);
    expect(isClosed(order({ info_status: 'CANCELLED' }))).toBe(true);
  });

  it('lets only the client cancel, and only an open order not delivered', () => {
    expect(canCancel(order(), 'client')).toBe(true);
    expect(canCancel(order(), 'photographer')).toBe(false);
    expect(canCancel(order(), 'sharedUser')).toBe(false);
    expect(canCancel(order({ public_status: 'DELIVERED' }), 'client')).toBe(false);
    expect(canCancel(order({ deleted: 1 }), 'client')).toBe(false);
  });
});

describe('fees', () => {
  it('takes 15 % for the platform, rounded to the cent, and pays the photographer the rest', () => {
    expect(fees(35000)).toEqual({ platformFeeCents: 5250, photographerPayoutCents: 29750 });
    expect(fees(999)).toEqual({ platformFeeCents: 150, photographerPayoutCents: 849 });
  });
});
