import type { EventOrderDetails } from '@marketplace/shared';

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
    },
    requirementInfo: { summary: 'Coverage for 60 guests.', items: [{ label: 'Dress code', value: 'Smart casual' }] },
    discountCode: null,
    mediaPayoutInfo: { currency: 'USD', totalCents: 35000, platformFeeCents: 5250, photographerPayoutCents: 29750, paidOut: false, paidOutAt: null },
    targets: [
      {
        targetId: 7,
        targetIdentifier: 'tgt-7',
        target: 'venue.png',
        targetURLs: ['http://files.test/media/uploads/venue.png', 'http://files.test/download?filePath=uploads%2Fvenue.png&fileName=venue.png'],
        description: 'Venue map',
        contentType: 'image/png',
        uploadedAt: '2026-11-02T10:00:00Z',
      },
    ],
    sharingId: 'share-1',
    ...over,
  };
}
