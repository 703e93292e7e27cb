/**
 * Test data of the browser side, in one place: entities as the API sends them, with the fields a
 * test is about overridden. Unit and component tests of every package take them from here
 * (`@marketplace/shared/test-utils`), and the e2e suite from `@marketplace/shared/factories` (no DOM).
 */
import type {
  CartItem,
  CartSummary,
  ContentItem,
  EventOrderDetails,
  MessageNotification,
  Notification,
  OwnedItem,
  Purchase,
  PurchaseLine,
  Sale,
  SalesMonth,
  UserInfo,
} from '../contract/index.js';

export const userInfo = (over: Partial<UserInfo> = {}): UserInfo => ({
  roles: [],
  profileName: 'clara',
  profilePicture: null,
  username: 'Clara',
  ...over,
});

let nextContent = 1;

/** A content item as the API sends it; a photo unless told otherwise. */
export function contentItem(over: Partial<ContentItem> = {}): ContentItem {
  const n = nextContent++;
  return {
    name: `Photo ${n}`,
    contentIdentifier: `ci-${n}`,
    contentUrl: `http://files.test/media/${n}.png`,
    contentType: 'image/png',
    metadata: { 'Content-Type': 'image/png' },
    width: 1200,
    height: 800,
    thumbnailUrl: `http://files.test/media/${n}-thumb.png`,
    filePath: `events/jazz/${n}.png`,
    filename: `${n}.png`,
    eventName: 'Summer Jazz Night',
    eventIdentifier: 'summer-jazz-night-2026',
    photographer: 'Mia Lens',
    profileName: 'mia',
    iconUrl: null,
    canAddToCart: true,
    priceCents: 1500,
    currency: 'USD',
    image: null,
    processing: false,
    locked: false,
    originalUrl: null,
    ...over,
  };
}

export const videoItem = (over: Partial<ContentItem> = {}) =>
  contentItem({
    name: 'Clip',
    contentType: 'video/mp4',
    metadata: { 'Content-Type': 'video/mp4' },
    contentUrl: 'http://files.test/media/clip/playlist.m3u8',
    ...over,
  });

export const cartItem = (identifier: string): CartItem => ({
  identifier,
  itemType: 'CONTENT',
  name: identifier,
  thumbnailUrl: null,
  image: null,
  eventName: null,
  priceCents: 100,
  currency: 'USD',
});

let nextId = 1;
export const notification = (fields: Partial<Notification> = {}): Notification => ({
  id: nextId++,
  status: 'NEW',
  content: `Notification ${nextId}`,
  link: null,
  timestamp: '2026-11-20T10:00:00.000Z',
  ...fields,
});

export const message = (profileName: string, fields: Partial<MessageNotification> = {}): MessageNotification => ({
  profileName,
  name: profileName.toUpperCase(),
  profilePicture: null,
  content: `Hello from ${profileName}`,
  status: 'NEW',
  timestamp: '2026-11-20T10:00:00.000Z',
  ...fields,
});

/** An event order details response for component tests; override what a test is about. */
export function orderDetails(over: Partial<EventOrderDetails> = {}): EventOrderDetails {
  return {
    view: 'client',
    deleted: false,
    backButton: { text: 'Back to orders', link: '/user/orders' },
    statuses: [
      { statusName: 'ORDER_REQUEST', statusType: 'COMPLETED' },
      { statusName: 'REQUIREMENTS_NEEDED', statusType: 'COMPLETED' },
      { statusName: 'AWAITING_APPROVAL', statusType: 'CURRENT' },
      { statusName: 'PENDING_FULFILLMENTS', statusType: 'LOCKED' },
      { statusName: 'DELIVERED', statusType: 'LOCKED' },
    ],
    eventOrderInfo: {
      orderId: 'ord-1',
      status: 'AWAITING_APPROVAL',
      publicStatus: 'AWAITING_APPROVAL',
      eventName: 'Team offsite',
      eventDate: '2026-12-01T18:00:00Z',
      location: 'Hall',
      packageName: 'Essentials',
      client: 'Clara',
      photographer: 'Mia',
      photographerProfileName: 'mia',
      createdAt: '2026-11-01T10:00:00Z',
      canCancel: true,
      actions: ['approve', 'cancel'],
      quote: {
        currency: 'USD',
        packagePriceCents: 35000,
        discountCents: 0,
        extrasCents: 0,
        extrasNote: '',
        totalCents: 35000,
        sentAt: '2026-11-02T10:00:00Z',
      },
      requirementsRequest: null,
      requirementsAnswer: null,
      declineReason: null,
    },
    requirementInfo: { summary: 'Coverage for 60 guests.', items: [{ label: 'Dress code', value: 'Smart casual' }] },
    discountCode: null,
    payment: { currency: 'USD', totalCents: 35000, paid: false },
    mediaPayoutInfo: {
      currency: 'USD',
      totalCents: 35000,
      platformFeeCents: 5250,
      photographerPayoutCents: 29750,
      paidOut: false,
      paidOutAt: null,
    },
    targets: [
      {
        targetId: 7,
        targetIdentifier: 'tgt-7',
        target: 'venue.png',
        targetURLs: [
          'http://files.test/files/order/tgt-7?f=640.jpg&exp=1&sig=v',
          'http://files.test/files/order/tgt-7?exp=1&sig=d&download=1',
        ],
        description: 'Venue map',
        contentType: 'image/png',
        uploadedAt: '2026-11-02T10:00:00Z',
        kind: 'reference',
        state: 'ready',
        failureReason: null,
        image: {
          width: 640,
          height: 480,
          placeholder: 'data:image/webp;base64,UklGRg==',
          sources: [
            {
              type: 'image/avif',
              srcset:
                'http://files.test/files/order/tgt-7?f=320.avif 320w, http://files.test/files/order/tgt-7?f=640.avif 640w',
            },
            {
              type: 'image/webp',
              srcset:
                'http://files.test/files/order/tgt-7?f=320.webp 320w, http://files.test/files/order/tgt-7?f=640.webp 640w',
            },
            {
              type: 'image/jpeg',
              srcset:
                'http://files.test/files/order/tgt-7?f=320.jpg 320w, http://files.test/files/order/tgt-7?f=640.jpg 640w',
            },
          ],
          src: 'http://files.test/files/order/tgt-7?f=640.jpg&exp=1&sig=v',
        },
        video: null,
      },
    ],
    sharingId: 'share-1',
    canUpload: true,
    deliverablesZipUrl: null,
    ...over,
  };
}

/** The cart's totals as the API prices them: two items, no code unless told. */
export const cartSummary = (over: Partial<CartSummary> = {}): CartSummary => ({
  currency: 'USD',
  itemCount: 2,
  subtotalCents: 3000,
  discountCents: 0,
  totalCents: 3000,
  discountCode: null,
  ...over,
});

export const purchaseLine = (over: Partial<PurchaseLine> = {}): PurchaseLine => ({
  identifier: 'ci-1',
  name: 'Photo 1',
  sellerProfileName: 'mia',
  sellerName: 'Mia Lens',
  priceCents: 1500,
  discountCents: 0,
  amountCents: 1500,
  ...over,
});

/** A paid purchase of one line unless told otherwise. */
export const purchase = (over: Partial<Purchase> = {}): Purchase => ({
  purchaseNumber: 'P-7K2M9Q4X',
  status: 'paid',
  currency: 'USD',
  subtotalCents: 1500,
  discountCents: 0,
  totalCents: 1500,
  discountCode: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: '2026-11-20T10:02:00.000Z',
  expiresAt: '2026-11-20T10:30:00.000Z',
  paymentReference: 'pi_test_1',
  items: [purchaseLine()],
  payUrl: null,
  ...over,
});

export const ownedItem = (over: Partial<OwnedItem> = {}): OwnedItem => ({
  identifier: 'ci-1',
  name: 'Photo 1',
  contentType: 'image/jpeg',
  eventName: 'Summer Jazz Night',
  sellerName: 'Mia Lens',
  purchaseNumber: 'P-7K2M9Q4X',
  purchasedAt: '2026-11-20T10:02:00.000Z',
  image: null,
  downloadUrl: 'http://files.test/files/original/ci-1?exp=1&sig=s',
  ...over,
});

export const sale = (over: Partial<Sale> = {}): Sale => ({
  purchaseNumber: 'P-7K2M9Q4X',
  identifier: 'ci-1',
  name: 'Photo 1',
  buyerProfileName: 'clara',
  soldAt: '2026-11-20T10:02:00.000Z',
  currency: 'USD',
  amountCents: 1500,
  feeCents: 225,
  payoutCents: 1275,
  ...over,
});

export const salesMonth = (over: Partial<SalesMonth> = {}): SalesMonth => ({
  month: '2026-11',
  currency: 'USD',
  count: 1,
  amountCents: 1500,
  feeCents: 225,
  payoutCents: 1275,
  ...over,
});
