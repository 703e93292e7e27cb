import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, Route, Routes } from '@marketplace/shared';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  allowOrigin,
  crossOriginFiles,
  notification,
  orderDetails,
  publish,
  purchase,
  renderWithSession,
  useMswServer,
  watchFetches,
  watchPageLoads,
} from '@marketplace/shared/test-utils';
import type { EventOrderDetails, EventOrderView, Target } from '@marketplace/shared';
import type { TestSession } from '@marketplace/shared/test-utils';

const present = <T,>(value: T | undefined): T => {
  if (value === undefined) throw new Error('expected a value');
  return value;
};
import { OrderPage } from './OrderPage.js';
import { PROCESSING_POLL_MS } from './useOrderDetails.js';
import { UNDO_MS } from '../uploads/useUndoableRemoval.js';

const server = useMswServer();
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string, session?: TestSession) {
  return renderWithSession(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/eventorder/:orderId" element={<OrderPage />} />
      </Routes>
    </MemoryRouter>,
    { session },
  );
}

/** Serves the given details, or a sequence of them (one per fetch, the last repeating). */
function serve(...answers: EventOrderDetails[]) {
  let calls = 0;
  server.use(
    http.get('http://api.test/v2/eventorder/:orderId/details', () =>
      HttpResponse.json(answers[Math.min(calls++, answers.length - 1)]),
    ),
  );
  return () => calls;
}

describe('details', () => {
  it('fetches with sharingId as a query, once (no retry), and shows the back button from the response', async () => {
    const urls: string[] = [];
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', ({ request }) => {
        urls.push(request.url);
        return HttpResponse.json(orderDetails());
      }),
    );
    renderAt('/eventorder/ord-1?sharingId=share');
    expect(await screen.findByRole('heading', { name: 'Team offsite' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to orders' })).toHaveAttribute('href', '/user/orders');
    expect(urls).toEqual(['http://api.test/v2/eventorder/ord-1/details?sharingId=share']);
  });

  it("shows 'You are unauthorized to view this page' when the fetch fails, without retrying", async () => {
    let calls = 0;
    server.use(
      http.get(
        'http://api.test/v2/eventorder/:orderId/details',
        () => (calls++, HttpResponse.json({ error: 'no' }, { status: 403 })),
      ),
    );
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('You are unauthorized to view this page')).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('shows an order that does not exist as not found, with a way back', async () => {
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', () =>
        HttpResponse.json({ error: 'Order not found' }, { status: 404 }),
      ),
    );
    renderAt('/eventorder/no-such-order');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no order at this address.')).toBeInTheDocument();
    expect(screen.queryByText('You are unauthorized to view this page')).toBeNull();
  });

  const declinedInfo = { ...orderDetails().eventOrderInfo, publicStatus: 'DECLINED' as const, status: null };
  it.each([
    { deleted: true },
    { eventOrderInfo: declinedInfo },
    {
      statuses: [
        { statusName: 'ORDER_REQUEST' as const, statusType: 'COMPLETED' as const },
        { statusName: 'DECLINED' as const, statusType: 'CURRENT' as const },
      ],
    },
  ])('shows a %j order as declined/cancelled with the back button', async (over) => {
    serve(orderDetails(over));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('This order has been declined/cancelled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to orders' })).toBeInTheDocument();
  });

  it('never follows a javascript: back link from the server', async () => {
    serve(orderDetails({ backButton: { text: 'Back', link: 'javascript:alert(1)' } }));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
  });

  it('renders server text as text, never as HTML', async () => {
    serve(orderDetails({ requirementInfo: { summary: '<img src=x onerror="window.hacked=1">', items: [] } }));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('<img src=x onerror="window.hacked=1">')).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });
});

describe('progress bar', () => {
  it('colours COMPLETED green with a check, CURRENT orange and bold, LOCKED grey; a connector takes the next step colour', async () => {
    serve(orderDetails());
    renderAt('/eventorder/ord-1');
    const bar = await screen.findByRole('list', { name: 'Order progress' });
    const steps = within(bar)
      .getAllByRole('listitem')
      .filter((li) => li.hasAttribute('data-status-type'));
    expect(steps.map((s) => s.textContent)).toEqual([
      '✓Order Placed',
      '✓Requirements Needed',
      '3Awaiting Approval',
      '4Pending Fulfillments',
      '5Delivered',
    ]);
    expect(steps[0]).toHaveStyle({ color: 'rgb(19, 115, 51)', fontWeight: '400' });
    expect(steps[2]).toHaveStyle({ color: 'rgb(179, 84, 10)', fontWeight: '700' });
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(steps[3]).toHaveStyle({ color: 'rgb(112, 117, 122)' });
    const connectors = screen.getAllByTestId('connector');
    expect(connectors.map((c) => getComputedStyle(c).backgroundColor)).toEqual([
      'rgb(19, 115, 51)',
      'rgb(179, 84, 10)',
      'rgb(112, 117, 122)',
      'rgb(112, 117, 122)',
    ]);
  });

  it('draws only the steps when the server also lists APPROVED, which has no label', async () => {
    const { statuses } = orderDetails();
    serve(
      orderDetails({
        statuses: [...statuses.slice(0, 3), { statusName: 'APPROVED', statusType: 'COMPLETED' }, ...statuses.slice(3)],
      }),
    );
    renderAt('/eventorder/ord-1');
    const bar = await screen.findByRole('list', { name: 'Order progress' });
    const steps = within(bar)
      .getAllByRole('listitem')
      .filter((li) => li.hasAttribute('data-status-type'));
    expect(steps.map((s) => s.textContent)).toEqual([
      '✓Order Placed',
      '✓Requirements Needed',
      '3Awaiting Approval',
      '4Pending Fulfillments',
      '5Delivered',
    ]);
  });
});

describe('views', () => {
  const view = async (v: EventOrderView, over: Partial<EventOrderDetails['eventOrderInfo']> = {}) => {
    const base = orderDetails();
    serve(orderDetails({ view: v, eventOrderInfo: { ...base.eventOrderInfo, ...over } }));
    renderAt('/eventorder/ord-1');
    await screen.findByRole('heading', { name: 'Team offsite' });
  };

  it('client: may cancel when offered, download, and manage uploads', async () => {
    await view('client');
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      expect.stringContaining('download=1'),
    );
    expect(screen.getByLabelText('Add images or videos')).toBeInTheDocument();
    expect(screen.getByText('Awaiting Approval', { selector: 'strong' })).toBeInTheDocument();
  });

  it("client: sees what the order costs and whether it is paid, not the photographer's payout", async () => {
    serve(orderDetails({ view: 'client', mediaPayoutInfo: null }));
    renderAt('/eventorder/ord-1');
    const payment = await screen.findByRole('region', { name: 'Payment' });
    expect(payment).toHaveTextContent('Total$350.00');
    expect(payment).toHaveTextContent('PaidNot yet');
    expect(screen.queryByRole('region', { name: 'Media payout' })).toBeNull();
    expect(screen.queryByText('Photographer payout')).toBeNull();
  });

  it("plays a processed video's HLS ladder in its row, its poster at the row's width until then", async () => {
    const base = orderDetails();
    const [picture] = base.targets;
    const video = {
      ...picture!,
      targetIdentifier: 'tgt-8',
      target: 'clip.mp4',
      contentType: 'video/mp4',
      video: { hls: 'http://files.test/files/order/tgt-8?f=master.m3u8&exp=1&sig=m', durationSeconds: 3 },
    };
    serve(orderDetails({ targets: [video] }));
    renderAt('/eventorder/ord-1');
    const row = (await screen.findByRole('list', { name: 'Uploaded files' })).querySelector('li');
    // 160 px at twice the pixels: the 320 px JPEG of the poster, under the play icon.
    expect(row?.querySelector('img.thumb')?.getAttribute('src')).toBe('http://files.test/files/order/tgt-7?f=320.jpg');
    expect(row?.querySelector('img.icon')).not.toBeNull();
    expect(row?.querySelector('picture')).toBeNull();
  });

  it('client: no cancel action when the server does not offer it', async () => {
    await view('client', { canCancel: false });
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });

  it('sharedUser: sees the delivered pictures and may download them; nothing else of the order', async () => {
    const base = orderDetails();
    const [reference] = base.targets;
    const delivered = { ...present(reference), targetId: 9, target: 'award.jpg', kind: 'deliverable' as const };
    serve(
      orderDetails({
        view: 'sharedUser',
        targets: [delivered],
        sharingId: null,
        canUpload: false,
        eventOrderInfo: { ...base.eventOrderInfo, actions: [], canCancel: true },
      }),
    );
    renderAt('/eventorder/ord-1?sharingId=share-1');
    const gallery = await screen.findByRole('list', { name: 'Deliverables' });
    expect(within(gallery).getByRole('link', { name: 'Download award.jpg' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(screen.queryByLabelText('Add images or videos')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Uploaded files' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Requirements' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Share' })).toBeNull();
  });

  it('client: a delivered order shows its gallery, "Download all", and a sharing link it can end', async () => {
    const base = orderDetails();
    const delivered = { ...present(base.targets[0]), targetId: 9, target: 'award.jpg', kind: 'deliverable' as const };
    const zip = 'http://files.test/files/order-deliverables/ord-1?exp=1&sig=z';
    const calls = serve(orderDetails({ targets: [...base.targets, delivered], deliverablesZipUrl: zip }));
    const sent: Record<string, FormDataEntryValue>[] = [];
    server.use(
      http.post('http://api.test/v2/eventorder/sharing/reset', async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        return HttpResponse.json({ sharingId: 'share-2' });
      }),
    );
    renderAt('/eventorder/ord-1');
    expect(await screen.findByRole('link', { name: 'Download all (1 file, ZIP)' })).toHaveAttribute('href', zip);
    expect(within(screen.getByRole('list', { name: 'Uploaded files' })).getByText('venue.png')).toBeInTheDocument();
    // The link is made absolute once the page is in the browser (an effect after the first render).
    await waitFor(() =>
      expect(screen.getByLabelText('Anyone with this link sees the delivered pictures')).toHaveValue(
        `${window.location.origin}/eventorder/ord-1?sharingId=share-1`,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stop sharing this link' }));
    expect(await screen.findByText('The old link no longer works: this is the new one')).toBeInTheDocument();
    expect(sent).toEqual([{ orderId: 'ord-1' }]);
    expect(calls()).toBe(2);
  });

  it("photographer: sees Pending Requirements, cannot cancel, download, or change the client's files", async () => {
    const base = orderDetails();
    serve(
      orderDetails({
        view: 'photographer',
        statuses: [{ statusName: 'REQUIREMENTS_NEEDED', statusType: 'CURRENT' }],
        eventOrderInfo: { ...base.eventOrderInfo, canCancel: true },
      }),
    );
    renderAt('/eventorder/ord-1');
    expect(await screen.findByText('Pending Requirements')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Uploaded files' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Remove|Change the description of) / })).toBeNull();
  });
});

describe('cancel flow', () => {
  it('asks first; No keeps the order; Yes sends status=CANCELLED as multipart and shows the refetched status', async () => {
    const base = orderDetails();
    const calls = serve(
      base,
      orderDetails({ eventOrderInfo: { ...base.eventOrderInfo, status: 'CANCELLED', canCancel: false } }),
    );
    let sent: Record<string, FormDataEntryValue> = {};
    server.use(
      http.post('http://api.test/v2/eventorder/status', async ({ request }) => {
        sent = Object.fromEntries((await request.formData()).entries());
        return HttpResponse.json({ orderId: 'ord-1', status: 'CANCELLED' });
      }),
    );
    renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(screen.getByRole('dialog', { name: 'Are you sure you want to cancel this order?' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');
    await userEvent.click(screen.getByRole('button', { name: 'No, do not cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.style.overflow).toBe('');
    expect(sent).toEqual({});

    await userEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel the order' }));
    expect(await screen.findByText('Order has been cancelled')).toBeInTheDocument();
    expect(sent).toEqual({ orderId: 'ord-1', status: 'CANCELLED' });
    expect(calls()).toBe(2);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });
});

describe('targets', () => {
  it('edits a description in a field that takes focus; Esc or Cancel leave it as it was; Save sends it and refetches', async () => {
    const calls = serve(orderDetails());
    const sent: Record<string, FormDataEntryValue>[] = [];
    server.use(
      http.post('http://api.test/v2/eventorder/target/changeDescription', async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        return HttpResponse.json({});
      }),
    );
    renderAt('/eventorder/ord-1');
    const edit = await screen.findByRole('button', { name: 'Change the description of venue.png' });
    await userEvent.click(edit);
    expect(screen.getByLabelText('Description of venue.png')).toHaveFocus();
    await userEvent.keyboard(' (old)');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByLabelText('Description of venue.png')).toBeNull();
    expect(screen.getByText(/^Venue map ·/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change the description of venue.png' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Change the description of venue.png' }));
    const field = screen.getByLabelText('Description of venue.png');
    expect(field).toHaveValue('Venue map');
    await userEvent.type(field, ' (old)');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Description of venue.png')).toBeNull();
    expect(screen.getByText(/^Venue map ·/)).toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Change the description of venue.png' }));
    expect(screen.getByLabelText('Description of venue.png')).toHaveValue('Venue map');
    await userEvent.clear(screen.getByLabelText('Description of venue.png'));
    await userEvent.type(screen.getByLabelText('Description of venue.png'), 'Floor plan');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Description of venue.png')).toBeNull());
    expect(sent).toEqual([{ orderId: 'ord-1', targetId: '7', description: 'Floor plan' }]);
    expect(calls()).toBe(2);
  });

  it('keeps the description being edited, with the reason, when saving it is refused', async () => {
    serve(orderDetails());
    server.use(
      http.post('http://api.test/v2/eventorder/target/changeDescription', () =>
        HttpResponse.json({ error: 'This order is closed: its files can no longer change' }, { status: 409 }),
      ),
    );
    renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Change the description of venue.png' }));
    await userEvent.type(screen.getByLabelText('Description of venue.png'), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Description of venue.png')).toHaveAccessibleDescription(
        'This order is closed: its files can no longer change',
      ),
    );
    expect(screen.getByLabelText('Description of venue.png')).toHaveValue('Venue map!');
  });

  it('shows a processed upload as a picture of its sizes, a processing one as such until it is ready, and a refused one with its reason', async () => {
    const ready = orderDetails().targets[0];
    if (!ready) throw new Error('the factory has a target');
    const processing = {
      ...ready,
      targetId: 8,
      target: 'later.jpg',
      state: 'processing' as const,
      targetURLs: [],
      image: null,
    };
    const refused = {
      ...ready,
      targetId: 9,
      target: 'bomb.png',
      state: 'failed' as const,
      failureReason: 'This image has 50000 x 50000 pixels; at most 100 million are accepted',
      targetURLs: [],
      image: null,
    };
    const calls = serve(
      orderDetails({ targets: [ready, processing, refused] }),
      orderDetails({ targets: [ready, { ...ready, targetId: 8, target: 'later.jpg' }, refused] }),
    );
    // Time runs as usual, and can be moved on past the polls that must no longer come.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const { client } = renderAt('/eventorder/ord-1');
    const list = await screen.findByRole('list', { name: 'Uploaded files' });
    const picture = within(list).getByAltText('venue.png');
    expect(picture.closest('picture')?.querySelectorAll('source')).toHaveLength(3);
    expect(picture.closest('picture')?.querySelector('source')?.getAttribute('type')).toBe('image/avif');
    expect(picture).not.toHaveAttribute('sizes');
    expect(picture.closest('picture')?.querySelector('source')).toHaveAttribute('sizes', '64px');
    expect(picture).toHaveAttribute('width', '64');
    expect(picture.style.backgroundImage).toContain('data:image/webp;base64');
    // The processing status and the description are lines of their own, not one run of text.
    const processingLine = within(list).getByRole('status');
    expect(processingLine).toHaveTextContent('Processing…');
    expect(processingLine).toHaveStyle({ display: 'block' });
    expect(processingLine.nextElementSibling).toHaveTextContent(/^Venue map ·/);
    expect(processingLine.nextElementSibling).toHaveStyle({ display: 'block' });
    expect(within(list).getByRole('alert')).toHaveTextContent(
      'Not accepted: This image has 50000 x 50000 pixels; at most 100 million are accepted',
    );
    // Read again while a file is processing, until none is: then the picture is there.
    await waitFor(() => expect(within(list).getAllByAltText('later.jpg')).toHaveLength(1), { timeout: 5000 });
    expect(within(list).queryByRole('status')).toBeNull();
    const settled = calls();
    await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS * 3);
    // A poll would be a read under way the moment its timer fired.
    expect(client.isFetching()).toBe(0);
    expect(calls()).toBe(settled);
  });

  it("reads the order again when a notification about it arrives live, not for another order's", async () => {
    const calls = serve(orderDetails());
    const { client } = renderAt('/eventorder/ord-1', {
      isLoggedIn: true,
      user: { roles: [], profileName: 'clara', username: 'Clara', profilePicture: null },
    });
    await screen.findByRole('list', { name: 'Uploaded files' });
    expect(calls()).toBe(1);
    // A notification's read starts as it arrives (the query is fetching at once): none for another order's.
    publish('notifications', 'clara', notification({ content: 'About another order', link: '/eventorder/ord-2' }));
    expect(client.isFetching()).toBe(0);
    publish(
      'notifications',
      'clara',
      notification({ content: 'New upload "x.png" on order ord-1.', link: '/eventorder/ord-1' }),
    );
    expect(client.isFetching()).toBe(1);
    await waitFor(() => expect(calls()).toBe(2));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls()).toBe(2);
  });
});

describe('order actions', () => {
  /** Answers each change with `reply` and keeps what was sent. */
  function changes(reply: () => Response = () => HttpResponse.json({})) {
    const sent: Record<string, FormDataEntryValue>[] = [];
    server.use(
      http.post('http://api.test/v2/eventorder/action', async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        return reply();
      }),
    );
    return sent;
  }
  const base = orderDetails();

  it('photographer: sends a quote in exact cents, its total shown as typed, then reads the order again', async () => {
    const calls = serve(
      orderDetails({
        view: 'photographer',
        eventOrderInfo: { ...base.eventOrderInfo, actions: ['askRequirements', 'sendQuote', 'decline'], quote: null },
      }),
    );
    const sent = changes();
    renderAt('/eventorder/ord-1');
    expect(screen.queryByRole('button', { name: 'Approve quote' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Send quote' }));
    const dialog = screen.getByRole('dialog', { name: 'Send a quote' });
    expect(within(dialog).getByLabelText('Package price ($)')).toHaveValue('350.00');
    await userEvent.clear(within(dialog).getByLabelText('Discount ($)'));
    await userEvent.type(within(dialog).getByLabelText('Discount ($)'), '50');
    await userEvent.clear(within(dialog).getByLabelText('Extras ($)'));
    await userEvent.type(within(dialog).getByLabelText('Extras ($)'), '25.10');
    await userEvent.type(within(dialog).getByLabelText('What the extras are'), 'Drone');
    expect(within(dialog).getByTestId('quote-total')).toHaveTextContent('$325.10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send quote' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      {
        orderId: 'ord-1',
        action: 'sendQuote',
        packagePriceCents: '35000',
        discountCents: '5000',
        extrasCents: '2510',
        extrasNote: 'Drone',
      },
    ]);
    expect(calls()).toBe(2);
  });

  it("shows the API's refusal beside the field it names, and a typo before sending anything", async () => {
    serve(orderDetails({ view: 'photographer', eventOrderInfo: { ...base.eventOrderInfo, actions: ['sendQuote'] } }));
    const sent = changes(() =>
      HttpResponse.json(
        { error: "Invalid field 'discountCents': must not be more than the package price", field: 'discountCents' },
        { status: 400 },
      ),
    );
    renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new quote' }));
    const discount = screen.getByLabelText('Discount ($)');
    await userEvent.clear(discount);
    await userEvent.type(discount, 'ten');
    await userEvent.click(screen.getByRole('button', { name: 'Send quote' }));
    expect(discount).toHaveAccessibleDescription('Enter an amount in dollars, like 250 or 99.50');
    expect(sent).toEqual([]);
    await userEvent.clear(discount);
    await userEvent.type(discount, '400');
    await userEvent.click(screen.getByRole('button', { name: 'Send quote' }));
    await waitFor(() =>
      expect(discount).toHaveAccessibleDescription(
        "Invalid field 'discountCents': must not be more than the package price",
      ),
    );
    expect(screen.getByRole('dialog', { name: 'Send a quote' })).toBeInTheDocument();
  });

  it('client: approves the quote after reading its total; a refusal stays on screen with its reason', async () => {
    serve(base);
    const sent = changes(() => HttpResponse.json({ error: 'This order was declined' }, { status: 409 }));
    renderAt('/eventorder/ord-1');
    expect(await screen.findByTestId('order-quote')).toHaveTextContent('$350.00');
    await userEvent.click(screen.getByRole('button', { name: 'Approve quote' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve this quote?' });
    expect(dialog).toHaveTextContent('You agree to pay $350.00 for this order.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This order was declined');
    // The quote it approves is the one on screen.
    expect(sent).toEqual([{ orderId: 'ord-1', action: 'approve', quoteSentAt: '2026-11-02T10:00:00Z' }]);
  });

  it('client: answers what the photographer asked', async () => {
    serve(
      orderDetails({
        eventOrderInfo: {
          ...base.eventOrderInfo,
          publicStatus: 'REQUIREMENTS_NEEDED',
          actions: ['answerRequirements', 'cancel'],
          requirementsRequest: 'Which speeches?',
        },
      }),
    );
    const sent = changes();
    renderAt('/eventorder/ord-1');
    expect(await screen.findByRole('region', { name: 'Requirements asked for' })).toHaveTextContent(
      'Mia asks: Which speeches?',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Answer' }));
    await userEvent.type(screen.getByLabelText('Which speeches?'), 'The CEO');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(sent).toEqual([{ orderId: 'ord-1', action: 'answerRequirements', answer: 'The CEO' }]));
  });

  it('client: pays an approved quote on the payment page, once however often the button is pressed', async () => {
    serve(
      orderDetails({
        eventOrderInfo: { ...base.eventOrderInfo, publicStatus: 'APPROVED', status: null, actions: ['pay', 'cancel'] },
      }),
    );
    const assign = watchPageLoads();
    const payUrl = 'http://api.test/payments/pay/P-7K2M9Q4X';
    const sent: Record<string, FormDataEntryValue>[] = [];
    // The first press's answer is held until both presses are in.
    let answer: () => void = () => undefined;
    const pressed = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post('http://api.test/v2/eventorder/pay', async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        await pressed;
        return HttpResponse.json({ purchase: purchase({ status: 'open', payUrl }) });
      }),
    );
    renderAt('/eventorder/ord-1');
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Approved, awaiting payment');
    const button = screen.getByRole('button', { name: 'Pay $350.00' });
    await userEvent.dblClick(button);
    answer();
    await waitFor(() => expect(assign).toHaveBeenCalledWith(payUrl));
    expect(sent).toEqual([{ orderId: 'ord-1' }]);
  });

  it('shows a cancelled order stopped at its step, in the same words as the info box', async () => {
    serve(orderDetails({ eventOrderInfo: { ...base.eventOrderInfo, status: 'CANCELLED', actions: [] } }));
    renderAt('/eventorder/ord-1');
    const end = await screen.findByText('Cancelled');
    expect(end.closest('li')).toHaveAttribute('data-status-type', 'ENDED');
    expect(screen.getByTestId('order-status')).toHaveTextContent('Order has been cancelled');
    expect(screen.queryByRole('button', { name: 'Approve quote' })).toBeNull();
  });
});

/**
 * An upload target whose XMLHttpRequest the test answers: it reports the upload's progress when
 * told (MSW reports it only once the whole body is in).
 */
class HeldUpload {
  static all: HeldUpload[] = [];
  url = '';
  upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send() {
    HeldUpload.all.push(this);
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total }));
  }
  respond(status: number, body = '{}') {
    this.status = status;
    this.responseText = body;
    act(() => this.onload?.());
  }
}

describe('uploads', () => {
  const base = orderDetails();
  const venue = present(base.targets[0]);
  const clipTarget = (over: Partial<Target>): Target => ({
    ...venue,
    targetId: 8,
    targetIdentifier: 'tgt-8',
    target: 'clip.mp4',
    contentType: 'video/mp4',
    description: '',
    ...over,
  });
  const clip = () => new File([new Uint8Array(1024)], 'clip.mp4', { type: 'video/mp4' });

  /** target/add hands out an upload URL per file (its name), and target ids from 8. */
  function addTargets() {
    const added: string[] = [];
    server.use(
      http.post('http://api.test/v2/eventorder/target/add', async ({ request }) => {
        const name = String((await request.formData()).get('fileName'));
        added.push(name);
        return HttpResponse.json({
          uploadUrl: `http://files.test/upload/${name}?token=t`,
          targetId: 7 + added.length,
          targetIdentifier: `tgt-${7 + added.length}`,
        });
      }),
    );
    return added;
  }

  it('shows a bar per file from its upload progress events, then Processing until the order lists it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const calls = serve(
      base,
      orderDetails({ targets: [venue, clipTarget({ state: 'processing', image: null, targetURLs: [] })] }),
      orderDetails({
        targets: [
          venue,
          clipTarget({ video: { hls: 'http://files.test/files/order/tgt-8?f=master.m3u8', durationSeconds: 3 } }),
        ],
      }),
    );
    // The read after the upload waits until the test has seen the file processing.
    let read = () => {};
    const held = new Promise<void>((resolve) => (read = resolve));
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', async () => {
        if (calls() > 0) await held;
        return undefined;
      }),
    );
    addTargets();
    HeldUpload.all = [];
    vi.stubGlobal('XMLHttpRequest', HeldUpload);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt('/eventorder/ord-1');
    await user.upload(await screen.findByLabelText('Add images or videos'), clip());
    await waitFor(() => expect(HeldUpload.all).toHaveLength(1));
    const [request] = HeldUpload.all;
    expect(request?.url).toBe('http://files.test/upload/clip.mp4?token=t');
    const uploading = screen.getByRole('list', { name: 'Files being uploaded' });
    const bar = within(uploading).getByRole('progressbar', { name: 'Sending clip.mp4' });
    expect(bar).toHaveAttribute('value', '0');
    expect(within(uploading).getByText('Sending… 0%')).toBeInTheDocument();

    request?.progress(512, 1024);
    expect(bar).toHaveAttribute('value', '512');
    expect(bar).toHaveAttribute('max', '1024');
    expect(within(uploading).getByText('Sending… 50%')).toBeInTheDocument();
    expect(screen.getByText('Uploaded 0/1')).toBeInTheDocument();

    request?.respond(200);
    await waitFor(() =>
      expect(within(uploading).getByText('clip.mp4').closest('li')).toHaveTextContent('clip.mp4Processing…'),
    );
    expect(within(uploading).queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Uploaded 1/1').closest('[role="status"]')).toHaveAttribute('aria-live', 'polite');
    read();
    // Read again: the order lists it (processing), and its row there takes over.
    const listed = await screen.findByText('clip.mp4', { selector: 'ul[aria-label="Uploaded files"] div' });
    expect(listed.parentElement).toHaveTextContent('Video preview is processing');
    expect(screen.queryByRole('list', { name: 'Files being uploaded' })).toBeNull();
    // Until its poster and player are there.
    await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS);
    await waitFor(() => expect(listed.closest('li')?.querySelector('video, img')).not.toBeNull());
  });

  it('says beside each refused file why, in words, while the others still go; dropped files go as chosen ones do', async () => {
    const calls = serve(base);
    const added = addTargets();
    const put: string[] = [];
    server.use(
      ...crossOriginFiles(
        'http://files.test',
        http.put('http://files.test/upload/:name', ({ params }) => {
          put.push(String(params.name));
          return allowOrigin(
            params.name === 'long.mp4'
              ? HttpResponse.json({ error: 'The file is larger than 524288000 bytes' }, { status: 413 })
              : HttpResponse.json({}),
          );
        }),
      ),
    );
    renderAt('/eventorder/ord-1');
    await screen.findByLabelText('Add images or videos');
    const files = [
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      new File([new Uint8Array(8)], 'long.mp4', { type: 'video/mp4' }),
      clip(),
    ];
    // Dropped on the field's box, as from a file manager.
    fireEvent.drop(screen.getByText('Add images or videos'), { dataTransfer: { types: ['Files'], files } });
    const uploading = screen.getByRole('list', { name: 'Files being uploaded' });
    const row = (name: string) => within(uploading).getByText(name).closest('li');
    // The text file is refused at once, before anything is sent.
    expect(row('notes.txt')).toHaveTextContent('notes.txtNot an image or a video');
    await waitFor(() => expect(row('long.mp4')).toHaveTextContent('long.mp4Too large: at most 500 MB'));
    await waitFor(() => expect(screen.getByText(/^Uploaded 1\/3/)).toHaveTextContent('Uploaded 1/3, 2 not accepted'));
    expect(added).toEqual(['long.mp4', 'clip.mp4']);
    expect(put).toEqual(['long.mp4', 'clip.mp4']);
    // The file sent: the order is read again.
    await waitFor(() => expect(calls()).toBe(2));
  });

  it('takes a text file from the picker too, and says why it is not sent', async () => {
    serve(base);
    const added = addTargets();
    renderAt('/eventorder/ord-1');
    // As a file manager's "All files" would pass it, past the picker's filter.
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(
      await screen.findByLabelText('Add images or videos'),
      new File(['hi'], 'notes.txt', { type: 'text/plain' }),
    );
    const uploading = screen.getByRole('list', { name: 'Files being uploaded' });
    expect(within(uploading).getByText('notes.txt').closest('li')).toHaveTextContent('Not an image or a video');
    expect(screen.getByText(/^Uploaded/)).toHaveTextContent('Uploaded 0/1, 1 not accepted');
    expect(added).toEqual([]);
  });
});

describe('removing a file', () => {
  /** What target/remove was sent so far, answering each: its form, and whether the page sent it to outlive it. */
  function removals() {
    const forms: Record<string, FormDataEntryValue>[] = [];
    const fetches = watchFetches();
    server.use(
      http.post('http://api.test/v2/eventorder/target/remove', async ({ request }) => {
        forms.push(Object.fromEntries((await request.formData()).entries()));
        return HttpResponse.json({ removed: 1 });
      }),
    );
    const removalsFetched = () => fetches.filter((request) => request.url.endsWith('/target/remove'));
    return () => forms.map((form, i) => ({ ...form, keepalive: String(removalsFetched()[i]?.keepalive) }));
  }

  it(`hides it at once and offers Undo for ${UNDO_MS / 1000} s; undone, nothing is sent; then the removal is sent`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const calls = serve(orderDetails(), orderDetails({ targets: [] }));
    const sent = removals();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt('/eventorder/ord-1');
    await user.click(await screen.findByRole('button', { name: 'Remove venue.png' }));
    expect(screen.queryByRole('list', { name: 'Uploaded files' })).toBeNull();
    expect(screen.getByText(/^Removed venue\.png\./).closest('[role="status"]')).toHaveAttribute('aria-live', 'polite');
    await user.click(screen.getByRole('button', { name: 'Undo removing venue.png' }));
    expect(within(screen.getByRole('list', { name: 'Uploaded files' })).getByText('venue.png')).toBeInTheDocument();
    expect(screen.queryByText(/^Removed venue\.png/)).toBeNull();
    await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
    expect(sent()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove venue.png' }));
    await vi.advanceTimersByTimeAsync(UNDO_MS - 100);
    expect(sent()).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    await waitFor(() => expect(sent()).toEqual([{ targetId: '7', keepalive: 'false' }]));
    await waitFor(() => expect(calls()).toBe(2));
    expect(screen.queryByText(/^Removed venue\.png/)).toBeNull();
    expect(screen.getByText('No uploads yet.')).toBeInTheDocument();
  });

  it('sends a waiting removal at once when the page is left: its route, or the tab', async () => {
    serve(orderDetails());
    const sent = removals();
    const { unmount } = renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove venue.png' }));
    unmount();
    // Sent so that it outlives the page.
    await waitFor(() => expect(sent()).toEqual([{ targetId: '7', keepalive: 'true' }]));

    renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove venue.png' }));
    window.dispatchEvent(new Event('pagehide'));
    // The tab stays: its requests are no longer ones the page's leaving cancels.
    window.dispatchEvent(new Event('pageshow'));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]).toEqual({ targetId: '7', keepalive: 'true' });
  });

  it('shows the file again, with why, when its removal is refused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    serve(orderDetails());
    server.use(
      http.post('http://api.test/v2/eventorder/target/remove', () =>
        HttpResponse.json({ error: 'This order is closed: its files can no longer change' }, { status: 409 }),
      ),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt('/eventorder/ord-1');
    await user.click(await screen.findByRole('button', { name: 'Remove venue.png' }));
    await vi.advanceTimersByTimeAsync(UNDO_MS);
    expect(
      await screen.findByText('venue.png could not be removed: This order is closed: its files can no longer change'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Uploaded files' })).getByText('venue.png')).toBeInTheDocument();
  });
});
