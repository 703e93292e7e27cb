import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ownedItem,
  purchase,
  purchaseLine,
  renderWithQuery,
  sale,
  salesMonth,
  useMswServer,
  userInfo,
} from '@marketplace/shared/test-utils';
import {
  createSessionStore,
  MemoryRouter,
  Route,
  Routes,
  SessionStoreContext,
  type PurchaseStatus,
  type Role,
} from '@marketplace/shared';
import { PurchasesPage } from './PurchasesPage.js';
import { ReceiptPage } from './ReceiptPage.js';
import { SalesPage } from './SalesPage.js';

const API = 'http://api.test/v2';
const server = useMswServer();

/** The account pages at `path`, over a session store of the test's own (a member with `roles`). */
function renderAt(path: string, roles: Role[] = []) {
  const store = createSessionStore({ isLoggedIn: true, session: null });
  store.setState({ user: userInfo({ roles }), loaded: true });
  return renderWithQuery(
    <SessionStoreContext.Provider value={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/receipt/:purchaseNumber" element={<ReceiptPage />} />
          <Route path="/user/purchases" element={<PurchasesPage />} />
          <Route path="/user/sales" element={<SalesPage />} />
        </Routes>
      </MemoryRouter>
    </SessionStoreContext.Provider>,
  );
}

/** A table's rows as the texts of their cells, under the table's heading. */
const rowsOf = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('receipt page', () => {
  it('shows the number, date, status, each line, the totals with the code, and the payment reference', async () => {
    const bought = purchase({
      purchaseNumber: 'P-7K2M9Q4X',
      createdAt: new Date(2026, 10, 20, 9, 5).toISOString(),
      subtotalCents: 4000,
      discountCents: 300,
      totalCents: 3700,
      discountCode: 'MIA20',
      paymentReference: 'pi_3Q9x',
      items: [
        purchaseLine({ identifier: 'a', name: 'Stage', priceCents: 1500, discountCents: 300, amountCents: 1200 }),
        purchaseLine({
          identifier: 'b',
          name: 'Crowd',
          sellerName: 'Olga Events',
          sellerProfileName: 'olga',
          priceCents: 2500,
          amountCents: 2500,
        }),
      ],
    });
    let asked = '';
    server.use(
      http.get(`${API}/purchases/:purchaseNumber`, ({ params }) => {
        asked = String(params.purchaseNumber);
        return HttpResponse.json({ purchase: bought });
      }),
    );
    renderAt('/receipt/P-7K2M9Q4X');
    expect(await screen.findByRole('table', { name: 'Items' })).toBeInTheDocument();
    expect(asked).toBe('P-7K2M9Q4X');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Receipt');
    const facts = screen.getByText('Purchase number').closest('dl') as HTMLElement;
    expect(facts).toHaveTextContent('Purchase numberP-7K2M9Q4X');
    expect(await within(facts).findByText('11/20/2026 9:05 AM')).toBeInTheDocument();
    expect(facts).toHaveTextContent('StatusPaid');
    expect(facts).toHaveTextContent('Payment referencepi_3Q9x');
    expect(rowsOf('Items')).toEqual([
      ['Item', 'Seller', 'Price', 'Discount', 'Amount'],
      ['Stage', 'Mia Lens', '$15.00', '-$3.00', '$12.00'],
      ['Crowd', 'Olga Events', '$25.00', '—', '$25.00'],
      ['Subtotal', '$40.00'],
      ['Discount (MIA20)', '-$3.00'],
      ['Total', '$37.00'],
    ]);
    expect(screen.getByRole('link', { name: 'Olga Events' })).toHaveAttribute('href', '/user/olga');
    expect(screen.getByRole('link', { name: 'My purchases' })).toHaveAttribute('href', '/user/purchases');
    expect(screen.queryByRole('link', { name: 'Pay now' })).toBeNull();
  });

  it('says an open purchase waits for its payment, and links to pay it', async () => {
    const payUrl = 'http://api.test/v2/pay/P-7K2M9Q4X';
    server.use(
      http.get(`${API}/purchases/:purchaseNumber`, () =>
        HttpResponse.json({ purchase: purchase({ status: 'open', paidAt: null, paymentReference: null, payUrl }) }),
      ),
    );
    renderAt('/receipt/P-7K2M9Q4X');
    expect(await screen.findByRole('link', { name: 'Pay now' })).toHaveAttribute('href', payUrl);
    expect(screen.getByText(/Waiting for payment/)).toBeInTheDocument();
  });

  it.each([
    ['expired', 'Expired'],
    ['flagged', 'Under review'],
  ] as [PurchaseStatus, string][])('says a %s purchase is "%s", with nothing to pay', async (status, words) => {
    server.use(
      http.get(`${API}/purchases/:purchaseNumber`, () =>
        HttpResponse.json({ purchase: purchase({ status, payUrl: 'http://api.test/v2/pay/P-1' }) }),
      ),
    );
    renderAt('/receipt/P-1');
    expect(await screen.findByText(words)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Pay now' })).toBeNull();
  });

  it('shows a purchase number the API does not know as not found', async () => {
    server.use(
      http.get(`${API}/purchases/:purchaseNumber`, () =>
        HttpResponse.json({ error: 'Purchase not found' }, { status: 404 }),
      ),
    );
    renderAt('/receipt/P-NOPE');
    expect(await screen.findByText('There is no receipt at this address.')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});

describe('purchases page', () => {
  it('shows each item bought with its picture, seller, event, receipt and Download link, and Download all', async () => {
    const image = {
      width: 1200,
      height: 800,
      placeholder: 'data:image/webp;base64,UklGRg==',
      sources: [{ type: 'image/webp', srcset: 'http://files.test/media/a/320.webp 320w' }],
      src: 'http://files.test/media/a/320.jpg',
    };
    server.use(
      http.get(`${API}/user/purchases`, () =>
        HttpResponse.json({
          purchases: [purchase()],
          items: [
            ownedItem({ identifier: 'a', name: 'Stage', image, downloadUrl: 'http://files.test/original/a?sig=1' }),
            ownedItem({
              identifier: 'b',
              name: 'Encore',
              contentType: 'video/mp4',
              eventName: null,
              purchaseNumber: 'P-2',
              downloadUrl: 'http://files.test/original/b?sig=2',
            }),
          ],
          downloadAllUrl: 'http://files.test/zip/all?sig=3',
        }),
      ),
    );
    renderAt('/user/purchases');
    const list = await screen.findByRole('list', { name: 'Purchased items' });
    const [stage, encore] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(stage).getByRole('heading', { name: 'Stage' })).toBeInTheDocument();
    expect(stage.querySelector('img')).toHaveAttribute('src', image.src);
    expect(stage).toHaveTextContent('by Mia Lens');
    expect(stage).toHaveTextContent('Summer Jazz Night');
    expect(within(stage).getByRole('link', { name: 'P-7K2M9Q4X' })).toHaveAttribute('href', '/receipt/P-7K2M9Q4X');
    const download = within(stage).getByRole('link', { name: 'Download Stage' });
    expect(download).toHaveAttribute('href', 'http://files.test/original/a?sig=1');
    expect(download).toHaveAttribute('download');
    expect(within(encore).getByRole('link', { name: 'Download Encore' })).toHaveAttribute(
      'href',
      'http://files.test/original/b?sig=2',
    );
    expect(within(encore).getByRole('link', { name: 'P-2' })).toHaveAttribute('href', '/receipt/P-2');
    const all = screen.getByRole('link', { name: 'Download all (ZIP)' });
    expect(all).toHaveAttribute('href', 'http://files.test/zip/all?sig=3');
    expect(all).toHaveAttribute('download');
  });

  it('says when nothing was bought yet, with a way to the events', async () => {
    server.use(
      http.get(`${API}/user/purchases`, () => HttpResponse.json({ purchases: [], items: [], downloadAllUrl: null })),
    );
    renderAt('/user/purchases');
    expect(await screen.findByText('You have not bought anything yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/events');
    expect(screen.queryByRole('link', { name: 'Download all (ZIP)' })).toBeNull();
  });
});

describe('sales page', () => {
  it('shows the totals of each month, and each sale with its buyer, fee and payout', async () => {
    server.use(
      http.get(`${API}/user/sales`, () =>
        HttpResponse.json({
          sales: [
            sale({ name: 'Stage', buyerProfileName: 'clara', soldAt: new Date(2026, 10, 20, 15, 30).toISOString() }),
            sale({
              identifier: 'b',
              name: 'Crowd',
              buyerProfileName: 'nora',
              amountCents: 3000,
              feeCents: 450,
              payoutCents: 2550,
            }),
          ],
          months: [
            salesMonth({ month: '2026-11', count: 2, amountCents: 4500, feeCents: 675, payoutCents: 3825 }),
            salesMonth({ month: '2026-10', count: 1, amountCents: 1000, feeCents: 150, payoutCents: 850 }),
          ],
        }),
      ),
    );
    renderAt('/user/sales', ['MEDIA']);
    expect(await screen.findByRole('table', { name: 'By month' })).toBeInTheDocument();
    expect(rowsOf('By month')).toEqual([
      ['Month', 'Sales', 'Amount', 'Fee', 'Payout'],
      ['November 2026', '2', '$45.00', '$6.75', '$38.25'],
      ['October 2026', '1', '$10.00', '$1.50', '$8.50'],
    ]);
    const table = screen.getByRole('table', { name: 'Every sale' });
    expect(await within(table).findByText('11/20/2026 3:30 PM')).toBeInTheDocument();
    expect(rowsOf('Every sale').slice(1)).toEqual([
      ['11/20/2026 3:30 PM', 'Stage', 'clara', '$15.00', '$2.25', '$12.75'],
      [expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} /), 'Crowd', 'nora', '$30.00', '$4.50', '$25.50'],
    ]);
    // Each table scrolls inside its own box on a narrow screen, reachable from the keyboard.
    for (const name of ['By month', 'Every sale'])
      expect(screen.getByRole('region', { name })).toHaveAttribute('tabindex', '0');
  });

  it("says 'No sales yet.' when there are none", async () => {
    server.use(http.get(`${API}/user/sales`, () => HttpResponse.json({ sales: [], months: [] })));
    renderAt('/user/sales', ['MEDIA']);
    expect(await screen.findByText('No sales yet.')).toBeInTheDocument();
  });

  it('refuses a user without the MEDIA role with the reason', async () => {
    server.use(
      http.get(`${API}/user/sales`, () =>
        HttpResponse.json({ error: 'Sales are for users with the MEDIA role' }, { status: 403 }),
      ),
    );
    renderAt('/user/sales', ['DRIVER']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Sales are for users with the MEDIA role');
  });
});
