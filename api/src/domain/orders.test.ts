import { describe, expect, it } from 'vitest';
import {
  canCancel,
  detailsFor,
  fees,
  isClosed,
  isParty,
  otherParty,
  progress,
  summaryFor,
  viewOf,
  type Order,
} from './orders.js';

const LETTER = { COMPLETED: 'D', CURRENT: 'C', LOCKED: 'L' } as const;
const types = (status: Parameters<typeof progress>[0]) =>
  progress(status)
    .map((s) => LETTER[s.statusType])
    .join('');

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

const order = (over: Partial<Order> = {}): Order => ({
  rowId: 7,
  orderId: 'ord-1',
  sharingId: 'share',
  clientId: 1,
  photographerId: 2,
  clientName: 'Clara',
  photographerName: 'Mia',
  photographerProfileName: 'mia',
  eventName: 'Gala',
  eventDate: '2026-12-01',
  location: 'Hall',
  packageName: 'Basic',
  publicStatus: 'AWAITING_APPROVAL',
  infoStatus: null,
  deleted: false,
  requirementInfo: { summary: '', items: [] },
  discountCode: null,
  totalCents: 35000,
  paidOutAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
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
    expect(otherParty(order(), 1)).toBe(2);
    expect(otherParty(order(), 2)).toBe(1);
  });
});

describe('closing and cancelling', () => {
  it('closes a deleted, declined or cancelled order', () => {
    expect(isClosed(order())).toBe(false);
    expect(isClosed(order({ deleted: true }))).toBe(true);
    expect(isClosed(order({ publicStatus: 'DECLINED' }))).toBe(true);
    expect(isClosed(order({ infoStatus: 'CANCELLED' }))).toBe(true);
  });

  it('lets only the client cancel, and only an open order not delivered', () => {
    expect(canCancel(order(), 'client')).toBe(true);
    expect(canCancel(order(), 'photographer')).toBe(false);
    expect(canCancel(order(), 'sharedUser')).toBe(false);
    expect(canCancel(order({ publicStatus: 'DELIVERED' }), 'client')).toBe(false);
    expect(canCancel(order({ deleted: true }), 'client')).toBe(false);
  });
});

describe('fees', () => {
  it('takes 15 % for the platform, rounded to the cent, and pays the photographer the rest', () => {
    expect(fees(35000)).toEqual({ platformFeeCents: 5250, photographerPayoutCents: 29750 });
    expect(fees(999)).toEqual({ platformFeeCents: 150, photographerPayoutCents: 849 });
  });
});

describe('showing an order', () => {
  it("lists an order under the other party as counterpart, with the lister's view", () => {
    expect(summaryFor(order(), 1)).toMatchObject({
      orderId: 'ord-1',
      view: 'client',
      counterpart: 'Mia',
      deleted: false,
    });
    expect(summaryFor(order({ deleted: true }), 2)).toMatchObject({
      view: 'photographer',
      counterpart: 'Clara',
      deleted: true,
    });
  });

  it('gives the parties the sharing link and the way back to their orders, a link holder neither', () => {
    const client = detailsFor(order(), 'client', []);
    expect(client.sharingId).toBe('share');
    expect(client.backButton).toEqual({ text: 'Back to orders', link: '/user/orders' });
    expect(client.eventOrderInfo.canCancel).toBe(true);
    expect(client.mediaPayoutInfo).toMatchObject({
      totalCents: 35000,
      platformFeeCents: 5250,
      photographerPayoutCents: 29750,
      paidOut: false,
    });
    const shared = detailsFor(order(), 'sharedUser', []);
    expect(shared.sharingId).toBeNull();
    expect(shared.backButton).toEqual({ text: 'Back to events', link: '/events' });
    expect(shared.eventOrderInfo.canCancel).toBe(false);
  });
});
