import { describe, expect, it } from 'vitest';
import { anOrder as order } from '../domain/ordersTesting.js';
import type { Derivative, TargetMedia } from '../media/derivatives.js';
import type { TargetRecord } from '../repositories/orders/index.js';
import type { FileUrls } from '../repositories/urls.js';
import { detailsFor, orderViews, progress, summaryFor } from './orders.js';

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
    // The client sees what the order costs; the photographer's share is the photographer's.
    expect(client.payment).toEqual({ currency: 'USD', totalCents: 35000, paid: false });
    expect(client.mediaPayoutInfo).toBeNull();
    expect(detailsFor(order(), 'photographer', []).mediaPayoutInfo).toMatchObject({
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

/** Links that say what they were made for: the target, the file (the original: null) and inline or attachment. */
const urls: Pick<FileUrls, 'orderFile' | 'orderDeliverables'> = {
  orderFile: (target: string, file: string | null, download: boolean) => `${target}/${file}/${download ? 'dl' : 'in'}`,
  orderDeliverables: (orderId: string) => `zip/${orderId}`,
};
const views = orderViews(urls);

const jpeg = (width: number): Derivative => ({
  name: `${width}.jpg`,
  key: `k/${width}.jpg`,
  contentType: 'image/jpeg',
  width,
});
const media: TargetMedia = { width: 1600, height: 900, placeholder: '', derivatives: [jpeg(320), jpeg(1600)] };

const record = (over: Partial<TargetRecord> = {}): TargetRecord => ({
  id: 1,
  uploaderId: 2,
  identifier: 'tgt-1',
  fileName: 'a.jpg',
  contentType: 'image/jpeg',
  description: '',
  uploadedAt: '2026-11-02T00:00:00.000Z',
  state: 'ready',
  failureReason: null,
  media,
  ...over,
});

describe("an order's files", () => {
  it('gives its uploader the original as sent, the other party a stripped one, a link holder a picture', () => {
    expect(views.target(record(), order(), 'photographer').targetURLs).toEqual([
      'tgt-1/1600.jpg/in',
      'tgt-1/as-uploaded/dl',
    ]);
    expect(views.target(record(), order(), 'client').targetURLs).toEqual(['tgt-1/1600.jpg/in', 'tgt-1/null/dl']);
    expect(views.target(record(), order(), 'sharedUser').targetURLs).toEqual([
      'tgt-1/1600.jpg/in',
      'tgt-1/1600.jpg/dl',
    ]);
  });

  it('links nothing of a file not ready, and says why a refused one was', () => {
    const failed = views.target(record({ state: 'failed', failureReason: 'Not a JPEG' }), order(), 'client');
    expect(failed).toMatchObject({ targetURLs: [], image: null, state: 'failed', failureReason: 'Not a JPEG' });
    expect(views.target(record({ state: 'processing' }), order(), 'client').targetURLs).toEqual([]);
  });

  it("shows the photographer's picture before the client's in the list, the smallest JPEG made of it", () => {
    const reference = { orderRowId: 7, identifier: 'tgt-ref', uploaderId: 1, contentType: 'image/jpeg', media };
    const deliverable = { ...reference, identifier: 'tgt-del', uploaderId: 2 };
    const [listed] = views.summaries([order()], 1, [reference, deliverable]);
    expect(listed?.thumbnailUrl).toBe('tgt-del/320.jpg/in');
    expect(views.summaries([order()], 1, [])[0]?.thumbnailUrl).toBeNull();
  });

  it('offers the parties the deliverables as a ZIP once one is ready', () => {
    expect(views.details(order(), 'client', [record({ uploaderId: 1 })]).deliverablesZipUrl).toBeNull();
    expect(views.details(order(), 'client', [record()]).deliverablesZipUrl).toBe('zip/ord-1');
  });
});
