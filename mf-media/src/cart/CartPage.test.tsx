import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  cartItem,
  cartSummary,
  purchase,
  purchaseLine,
  renderWithQuery,
  useMswServer,
  userInfo,
  watchPageLoads,
} from '@marketplace/shared/test-utils';
import {
  createSessionStore,
  MemoryRouter,
  Route,
  Routes,
  SessionStoreContext,
  useLocation,
  type CartSummary,
} from '@marketplace/shared';
import { CartPage } from './CartPage.js';

const API = 'http://api.test/v2';
const server = useMswServer();
afterEach(() => vi.unstubAllGlobals());

const MIA15: CartSummary = cartSummary({
  subtotalCents: 3000,
  discountCents: 450,
  totalCents: 2550,
  discountCode: { code: 'MIA15', percentOff: 15, sellerProfileName: 'mia', sellerName: 'Mia Lens' },
});

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** The cart page over a session store of the test's own: a member's (or a visitor's) cart of `items`. */
function renderCart({ items = ['a', 'b'], loggedIn = true } = {}) {
  const store = createSessionStore({ isLoggedIn: loggedIn, session: null });
  store.setState({ cart: items.map(cartItem), loaded: true, user: loggedIn ? userInfo() : null });
  renderWithQuery(
    <SessionStoreContext.Provider value={store}>
      <MemoryRouter initialEntries={['/cart']}>
        <Routes>
          <Route path="/cart" element={<CartPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </SessionStoreContext.Provider>,
  );
  return store;
}

/** The summary's row whose term starts with `term`. */
const row = (term: RegExp) => screen.getByText(term, { selector: 'dt' }).parentElement as HTMLElement;

/** Answers the summary with `summaries` in turn (the last one from then on), counting the calls. */
function answerSummary(...summaries: CartSummary[]) {
  const calls = { count: 0 };
  server.use(
    http.get(`${API}/user/cart/summary`, () => {
      const summary = summaries[Math.min(calls.count, summaries.length - 1)]!;
      calls.count++;
      return HttpResponse.json({ summary });
    }),
  );
  return calls;
}

describe('cart order summary', () => {
  it("shows the subtotal, the code's discount and the total as the API priced them", async () => {
    answerSummary(MIA15);
    renderCart();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(await within(summary).findByText(/^Total/, { selector: 'dt' })).toBeInTheDocument();
    // The items cost $1.00 each here: the figures are the server's, not sums of the page's own.
    expect(row(/^Subtotal/)).toHaveTextContent('Subtotal (2 items)$30.00');
    expect(row(/^Discount/)).toHaveTextContent(/MIA15.*15% off Mia Lens.s items.*-\$4\.50/);
    expect(row(/^Total/)).toHaveTextContent('$25.50');
  });

  it("prices the cart again whenever the session's cart changes", async () => {
    const calls = answerSummary(cartSummary({ itemCount: 2, subtotalCents: 3000, totalCents: 3000 }), {
      ...cartSummary(),
      itemCount: 1,
      subtotalCents: 1500,
      totalCents: 1500,
    });
    const store = renderCart();
    await waitFor(() => expect(row(/^Total/)).toHaveTextContent('$30.00'));
    act(() => store.setState({ cart: [cartItem('a')] }));
    await waitFor(() => expect(row(/^Total/)).toHaveTextContent('$15.00'));
    expect(row(/^Subtotal/)).toHaveTextContent('Subtotal (1 item)$15.00');
    expect(calls.count).toBe(2);
  });

  it("applies a code and shows the server's new totals", async () => {
    answerSummary(cartSummary());
    let sent = '';
    server.use(
      http.post(`${API}/user/cart/discountCode`, async ({ request }) => {
        sent = await request.text();
        return HttpResponse.json({ summary: MIA15 });
      }),
    );
    renderCart();
    const field = await screen.findByRole('textbox', { name: 'Discount code' });
    await userEvent.type(field, ' MIA15 ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(row(/^Total/)).toHaveTextContent('$25.50'));
    expect(new URLSearchParams(sent).get('code')).toBe('MIA15');
    expect(row(/^Discount/)).toHaveTextContent('-$4.50');
    expect(field).toHaveValue('');
  });

  it("shows a refused code's reason beside the field, tied to it", async () => {
    answerSummary(cartSummary());
    server.use(
      http.post(`${API}/user/cart/discountCode`, () =>
        HttpResponse.json({ error: 'This code has expired', field: 'code' }, { status: 400 }),
      ),
    );
    renderCart();
    const field = await screen.findByRole('textbox', { name: 'Discount code' });
    await userEvent.type(field, 'OLD10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription('This code has expired'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.closest('form')).toHaveTextContent('This code has expired');
  });

  it('Remove takes the code off, with the totals the server answers', async () => {
    answerSummary(MIA15);
    server.use(http.post(`${API}/user/cart/discountCode/remove`, () => HttpResponse.json({ summary: cartSummary() })));
    renderCart();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove code MIA15' }));
    await waitFor(() => expect(row(/^Total/)).toHaveTextContent('$30.00'));
    expect(screen.queryByText(/^Discount/, { selector: 'dt' })).toBeNull();
  });
});

describe('check out', () => {
  it('sends exactly one checkout on a double click, then loads the payment page', async () => {
    answerSummary(cartSummary());
    const assign = watchPageLoads();
    const payUrl = 'http://api.test/v2/pay/P-7K2M9Q4X';
    let checkouts = 0;
    let answerCheckout!: () => void;
    const checkoutAnswered = new Promise<void>((resolve) => (answerCheckout = resolve));
    server.use(
      http.post(`${API}/checkout`, async () => {
        checkouts++;
        await checkoutAnswered;
        return HttpResponse.json({ purchase: purchase({ status: 'open', payUrl }), refused: [] });
      }),
    );
    renderCart();
    const button = await screen.findByRole('button', { name: 'Check out' });
    await userEvent.dblClick(button);
    expect(button).toBeDisabled();
    // Both clicks are in while the first checkout is still unanswered.
    await waitFor(() => expect(checkouts).toBe(1));
    answerCheckout();
    await waitFor(() => expect(assign).toHaveBeenCalledWith(payUrl));
    expect(checkouts).toBe(1);
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('lists the items checkout refused with their reasons first, and goes to pay only when asked; the cart loses them', async () => {
    answerSummary(cartSummary());
    const assign = watchPageLoads();
    const payUrl = 'http://api.test/v2/pay/P-7K2M9Q4X';
    server.use(
      // The server took the refused item out of the cart.
      http.get(`${API}/user/cart`, () => HttpResponse.json({ cart: [cartItem('a')] })),
      http.post(`${API}/checkout`, () =>
        HttpResponse.json({
          purchase: purchase({ status: 'open', payUrl, items: [purchaseLine({ identifier: 'a' })] }),
          refused: [{ identifier: 'b', name: 'Harbour at dusk', reason: 'You already own this item' }],
        }),
      ),
    );
    const store = renderCart();
    await userEvent.click(await screen.findByRole('button', { name: 'Check out' }));
    const notice = await screen.findByRole('status');
    await waitFor(() => expect(store.getState().cart.map((i) => i.identifier)).toEqual(['a']));
    expect(notice).toHaveTextContent('Harbour at dusk: You already own this item');
    expect(notice).toHaveTextContent('$15.00');
    expect(assign).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(assign).toHaveBeenCalledWith(payUrl);
  });

  it("shows the API's reason when checkout fails, and can be tried again", async () => {
    answerSummary(cartSummary());
    server.use(
      http.post(`${API}/checkout`, () => HttpResponse.json({ error: 'Your cart is empty' }, { status: 400 })),
      http.get(`${API}/user/cart`, () => HttpResponse.json({ cart: [cartItem('a'), cartItem('b')] })),
    );
    renderCart();
    await userEvent.click(await screen.findByRole('button', { name: 'Check out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your cart is empty');
    expect(screen.getByRole('button', { name: 'Check out' })).toBeEnabled();
  });

  it('sends a visitor to log in, remembering to come back to the cart', async () => {
    answerSummary(cartSummary());
    renderCart({ loggedIn: false });
    expect(screen.queryByRole('button', { name: 'Check out' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log in to check out' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/user/login');
    expect(decodeURIComponent(document.cookie)).toContain('loginRedirect=/cart');
  });
});
