import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOrderDetails } from '@marketplace/shared';
import { renderWithQuery } from '@marketplace/shared/test-utils';
import { OrderPage, stepLabel } from './OrderPage.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const details = (over: Partial<EventOrderDetails> = {}): EventOrderDetails => ({
  view: 'client',
  deleted: false,
  declined: false,
  backButton: { text: 'Back to orders', link: '/user/orders' },
  statuses: [
    { statusName: 'ORDER_REQUEST', statusType: 'COMPLETED' },
    { statusName: 'REQUIREMENTS_NEEDED', statusType: 'CURRENT' },
    { statusName: 'AWAITING_APPROVAL', statusType: 'LOCKED' },
    { statusName: 'PENDING_FULFILLMENTS', statusType: 'LOCKED' },
    { statusName: 'DELIVERED', statusType: 'LOCKED' },
  ],
  eventOrderInfo: {
    orderId: 'ord-1',
    status: null,
    publicStatus: 'REQUIREMENTS_NEEDED',
    eventName: 'Product launch',
    eventDate: '2026-12-01T18:00:00Z',
    location: 'Hall',
    packageName: 'Essentials',
    client: 'Clara',
    photographer: 'Mia',
    photographerProfileName: 'mia',
    createdAt: '2026-11-01T10:00:00Z',
    canCancel: true,
  },
  requirementInfo: { summary: 's', items: [] },
  discountCode: null,
  mediaPayoutInfo: { currency: 'USD', totalCents: 1, platformFeeCents: 0, photographerPayoutCents: 1, paidOut: false, paidOutAt: null },
  targets: [],
  sharingId: 'share',
  ...over,
});

function renderAt(path: string) {
  return renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/eventorder/:orderId" element={<OrderPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('stepLabel', () => {
  it("labels every step per SPEC.md section 4, with 'Pending Requirements' for the photographer", () => {
    expect(stepLabel('ORDER_REQUEST', 'client')).toBe('Order Placed');
    expect(stepLabel('REQUIREMENTS_NEEDED', 'client')).toBe('Requirements Needed');
    expect(stepLabel('REQUIREMENTS_NEEDED', 'sharedUser')).toBe('Requirements Needed');
    expect(stepLabel('REQUIREMENTS_NEEDED', 'photographer')).toBe('Pending Requirements');
    expect(stepLabel('AWAITING_APPROVAL', 'client')).toBe('Awaiting Approval');
    expect(stepLabel('PENDING_FULFILLMENTS', 'client')).toBe('Pending Fulfillments');
    expect(stepLabel('DELIVERED', 'client')).toBe('Delivered');
  });
});

describe('OrderPage', () => {
  it('fetches with sharingId as a query, once (no retry), and shows the back button from the response', async () => {
    const urls: string[] = [];
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', ({ request }) => {
        urls.push(request.url);
        return HttpResponse.json(details());
      }),
    );
    renderAt('/eventorder/ord-1?sharingId=share');
    expect(await screen.findByRole('heading', { name: 'Product launch' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to orders' })).toHaveAttribute('href', '/user/orders');
    expect(urls).toEqual(['http://api.test/v2/eventorder/ord-1/details?sharingId=share']);
  });

  it("shows 'You are unauthorized to view this page' when the fetch fails, without retrying", async () => {
    let calls = 0;
    server.use(http.get('http://api.test/v2/eventorder/:orderId/details', () => (calls++, HttpResponse.json({ error: 'no' }, { status: 403 }))));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('You are unauthorized to view this page')).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it.each([{ declined: true }, { deleted: true }])('shows a %j order as declined/cancelled with the back button', async (over) => {
    server.use(http.get('http://api.test/v2/eventorder/:orderId/details', () => HttpResponse.json(details(over))));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('This order has been declined/cancelled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to orders' })).toBeInTheDocument();
  });

  it('never follows a javascript: back link from the server', async () => {
    server.use(http.get('http://api.test/v2/eventorder/:orderId/details', () => HttpResponse.json(details({ backButton: { text: 'Back', link: 'javascript:alert(1)' } }))));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
  });
});
