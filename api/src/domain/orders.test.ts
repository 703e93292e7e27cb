import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { EVENT_ORDER_STATUSES, type EventOrderStatus } from '@marketplace/shared/contract';
import {
  ORDER_TRANSITIONS,
  actionsFor,
  canCancel,
  refusalOf,
  type OrderTransition,
  fees,
  isClosed,
  isParty,
  otherParty,
  viewOf,
} from './orders.js';
import { anOrder as order } from './ordersTesting.js';

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

  it('lets only the client cancel, and only an open order not yet paid', () => {
    expect(canCancel(order(), 'client')).toBe(true);
    expect(canCancel(order({ publicStatus: 'APPROVED' }), 'client')).toBe(true);
    expect(canCancel(order(), 'photographer')).toBe(false);
    expect(canCancel(order(), 'sharedUser')).toBe(false);
    expect(canCancel(order({ publicStatus: 'PENDING_FULFILLMENTS', infoStatus: 'SECURED' }), 'client')).toBe(false);
    expect(canCancel(order({ publicStatus: 'DELIVERED' }), 'client')).toBe(false);
    expect(canCancel(order({ deleted: true }), 'client')).toBe(false);
  });
});

describe('the transition table', () => {
  /**
   * Every change an actor may make, written out by hand as "status: actions": the table in
   * orders.ts must give exactly these and refuse every other pair of state and actor.
   */
  const EXPECTED: Record<'client' | 'photographer' | 'payment', Record<EventOrderStatus, string>> = {
    client: {
      ORDER_REQUEST: 'cancel',
      REQUIREMENTS_NEEDED: 'answerRequirements cancel',
      AWAITING_APPROVAL: 'approve cancel',
      APPROVED: 'cancel',
      DECLINED: '',
      PENDING_FULFILLMENTS: '',
      DELIVERED: '',
    },
    photographer: {
      ORDER_REQUEST: 'askRequirements sendQuote decline',
      REQUIREMENTS_NEEDED: 'sendQuote decline',
      AWAITING_APPROVAL: 'askRequirements sendQuote decline',
      APPROVED: '',
      DECLINED: '',
      PENDING_FULFILLMENTS: 'deliver',
      DELIVERED: '',
    },
    payment: {
      ORDER_REQUEST: '',
      REQUIREMENTS_NEEDED: '',
      AWAITING_APPROVAL: '',
      APPROVED: 'pay',
      DECLINED: '',
      PENDING_FULFILLMENTS: '',
      DELIVERED: '',
    },
  };
  const ALL = Object.keys(ORDER_TRANSITIONS) as OrderTransition[];

  for (const actor of ['client', 'photographer', 'payment'] as const) {
    for (const status of EVENT_ORDER_STATUSES) {
      it(`lets the ${actor} of a ${status} order make exactly: ${EXPECTED[actor][status] || 'nothing'}`, () => {
        const facts = order({ publicStatus: status });
        const allowed = ALL.filter((name) => refusalOf(facts, name, actor) === null);
        expect(allowed.join(' ')).toBe(EXPECTED[actor][status].split(' ').filter(Boolean).join(' '));
        for (const name of ALL.filter((n) => !allowed.includes(n))) {
          expect(refusalOf(facts, name, actor)).toMatch(/\w/);
        }
        if (actor !== 'payment') {
          // The client is offered to pay (through the provider) where the payment may move the order.
          const payable = actor === 'client' && refusalOf(facts, 'pay', 'payment') === null;
          expect(actionsFor(facts, actor)).toEqual(payable ? ['pay', ...allowed] : allowed);
          // Cancelled or deleted, the same order allows nobody anything.
          expect(actionsFor(order({ publicStatus: status, infoStatus: 'CANCELLED' }), actor)).toEqual([]);
          expect(actionsFor(order({ publicStatus: status, deleted: true }), actor)).toEqual([]);
        }
      });
    }
  }

  it('gives a sharing-link holder nothing to do, and says why a change is refused', () => {
    for (const status of EVENT_ORDER_STATUSES)
      expect(actionsFor(order({ publicStatus: status }), 'sharedUser')).toEqual([]);
    expect(refusalOf(order(), 'approve', 'photographer')).toBe('Only the client can do this');
    expect(refusalOf(order(), 'deliver', 'client')).toBe('Only the photographer can do this');
    expect(refusalOf(order(), 'pay', 'client')).toBe('Only a confirmed payment can do this');
    expect(refusalOf(order({ publicStatus: 'DELIVERED' }), 'cancel', 'client')).toBe(
      'This order can no longer be cancelled',
    );
    expect(refusalOf(order({ infoStatus: 'CANCELLED' }), 'sendQuote', 'photographer')).toBe('This order was cancelled');
    expect(refusalOf(order({ publicStatus: 'DECLINED' }), 'approve', 'client')).toBe('This order was declined');
    expect(refusalOf(order({ publicStatus: 'ORDER_REQUEST' }), 'deliver', 'photographer')).toBe(
      'This order is "Order Placed" now, so it cannot be delivered',
    );
  });
});

describe('fees', () => {
  it('takes 15 % for the platform, rounded to the cent, and pays the photographer the rest', () => {
    expect(fees(35000)).toEqual({ platformFeeCents: 5250, photographerPayoutCents: 29750 });
    expect(fees(999)).toEqual({ platformFeeCents: 150, photographerPayoutCents: 849 });
  });
});
describe('docs/order-lifecycle.md', () => {
  it('draws every transition of the table, and nothing else', () => {
    const doc = readFileSync(new URL('../../../docs/order-lifecycle.md', import.meta.url), 'utf8');
    const diagram = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const drawn = [...diagram.matchAll(/^\s+(\w+) --> (\w+): (\w+) \((\w+)\)$/gm)].map((m) => m.slice(1).join(' '));
    const table = Object.entries(ORDER_TRANSITIONS).flatMap(([name, rule]) =>
      rule.from.map((from) => {
        const to = 'to' in rule ? rule.to : 'info' in rule && rule.info === 'CANCELLED' ? 'CANCELLED' : from;
        return `${from} ${to} ${name} ${rule.by}`;
      }),
    );
    expect(drawn.sort()).toEqual(table.sort());
  });
});
