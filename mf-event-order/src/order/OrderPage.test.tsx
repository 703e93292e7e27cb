import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { MemoryRouter, Route, Routes, sessionStore } from '@marketplace/shared';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  notification,
  orderDetails,
  publish,
  purchase,
  renderWithQuery,
  useMswServer,
  watchPageLoads,
} from '@marketplace/shared/test-utils';
import type { EventOrderDetails, EventOrderView } from '@marketplace/shared';

const present = <T,>(value: T | undefined): T => {
  if (value === undefined) throw new Error('expected a value');
  return value;
};
import { OrderPage } from './OrderPage.js';
import { PROCESSING_POLL_MS } from './useOrderDetails.js';

const server = useMswServer();
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  return renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/eventorder/:orderId" element={<OrderPage />} />
      </Routes>
    </MemoryRouter>,
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
  it('changes a description and removes a target with their calls, then refetches', async () => {
    const calls = serve(orderDetails());
    const sent: Record<string, FormDataEntryValue>[] = [];
    const capture = async ({ request }: { request: Request }) => {
      sent.push(Object.fromEntries((await request.formData()).entries()));
      return HttpResponse.json({});
    };
    server.use(
      http.post('http://api.test/v2/eventorder/target/changeDescription', capture),
      http.post('http://api.test/v2/eventorder/target/remove', capture),
    );
    renderAt('/eventorder/ord-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Change the description of venue.png' }));
    const input = screen.getByLabelText('Description of venue.png');
    await userEvent.clear(input);
    await userEvent.type(input, 'Floor plan');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Remove venue.png' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([{ orderId: 'ord-1', targetId: '7', description: 'Floor plan' }, { targetId: '7' }]);
    await waitFor(() => expect(calls()).toBe(3));
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
    expect(within(list).getByRole('status')).toHaveTextContent('Processing…');
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
    sessionStore.setState({
      isLoggedIn: true,
      user: { roles: [], profileName: 'clara', username: 'Clara', profilePicture: null },
    });
    try {
      const calls = serve(orderDetails());
      const { client } = renderAt('/eventorder/ord-1');
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
    } finally {
      sessionStore.setState({ isLoggedIn: false, user: null });
    }
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
    server.use(
      http.post('http://api.test/v2/eventorder/pay', async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        await delay(50);
        return HttpResponse.json({ purchase: purchase({ status: 'open', payUrl }) });
      }),
    );
    renderAt('/eventorder/ord-1');
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Approved, awaiting payment');
    const button = screen.getByRole('button', { name: 'Pay $350.00' });
    await userEvent.dblClick(button);
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
