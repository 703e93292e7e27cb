import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer, type TestSession } from '@marketplace/shared/test-utils';
import { LEGAL_DOCUMENTS, MemoryRouter, type EventOrderSummary, type OwnProfile } from '@marketplace/shared';
import { LegalPage } from '../content/LegalPage.js';
import { DiscountCodesPage } from '../offers/DiscountCodesPage.js';
import { MediaPackagesPage } from '../offers/MediaPackagesPage.js';
import { MyEventsPage } from '../events/MyEventsPage.js';
import { OrdersPage, ProfilePage } from './AccountPages.js';
import { SettingsPage } from './SettingsPage.js';

const profile: OwnProfile = {
  roles: ['DRIVER'],
  profileName: 'clara',
  profilePicture: null,
  username: 'Clara Client',
  email: 'clara@example.com',
  bio: 'Orders event coverage.',
  createdAt: '2025-01-01T00:00:00Z',
};

const server = useMswServer();
const clara: TestSession = {
  isLoggedIn: true,
  user: { roles: ['DRIVER'], profileName: 'clara', profilePicture: null, username: 'Clara Client' },
};

const renderPage = (page: React.ReactNode, session: TestSession = clara) =>
  renderWithSession(<MemoryRouter>{page}</MemoryRouter>, { session });

describe('account pages', () => {
  it('shows the profile from the API', async () => {
    server.use(http.get('http://api.test/v2/user/profile', () => HttpResponse.json(profile)));
    renderPage(<ProfilePage />);
    expect(await screen.findByText('clara@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'clara' })).toHaveAttribute('href', '/user/clara');
    expect(screen.getByText('DRIVER')).toBeInTheDocument();
  });

  const summary = (over: Partial<EventOrderSummary>): EventOrderSummary => ({
    orderId: 'ord-1006',
    view: 'client',
    eventName: 'Annual awards',
    eventDate: '',
    publicStatus: 'DELIVERED',
    status: 'PUBLISHED',
    deleted: false,
    counterpart: 'Mia Lens',
    packageName: 'Essentials',
    currency: 'USD',
    totalCents: 35000,
    createdAt: '',
    thumbnailUrl: null,
    ...over,
  });

  it('lists each order with its status in words, package and total, filtered by where it stands', async () => {
    server.use(
      http.get('http://api.test/v2/user/eventOrders', () =>
        HttpResponse.json({
          eventOrders: [
            summary({ thumbnailUrl: 'http://files.test/f/tgt-1?f=320.jpg' }),
            summary({ orderId: 'ord-1002', eventName: 'Launch', publicStatus: 'REQUIREMENTS_NEEDED', status: null }),
            summary({ orderId: 'ord-1009', eventName: 'Fair', publicStatus: 'APPROVED', status: 'CANCELLED' }),
            summary({
              orderId: 'ord-2001',
              eventName: 'Car show',
              view: 'photographer',
              publicStatus: 'REQUIREMENTS_NEEDED',
              status: null,
            }),
          ],
        }),
      ),
    );
    renderPage(<OrdersPage />);
    // All at first; then the requests under way, in each viewer's words.
    expect(await screen.findAllByTestId('order-row-status')).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: 'Active' }));
    const active = screen.getByRole('list', { name: 'Event orders' });
    expect(
      within(active)
        .getAllByTestId('order-row-status')
        .map((s) => s.textContent),
    ).toEqual(['Requirements Needed', 'Pending Requirements']);
    expect(within(active).getByRole('link', { name: 'Launch (ord-1002)' })).toHaveAttribute(
      'href',
      '/eventorder/ord-1002',
    );
    expect(active).toHaveTextContent('with Mia Lens · Essentials · $350.00');
    await userEvent.click(screen.getByRole('button', { name: 'Delivered' }));
    expect(screen.getByRole('link', { name: 'Annual awards (ord-1006)' })).toHaveAttribute(
      'href',
      '/eventorder/ord-1006',
    );
    expect(screen.getByTestId('order-row-status')).toHaveTextContent('Delivered');
    // Its first delivered photo, as the API signed it.
    expect(screen.getByTestId('order-thumbnail')).toHaveAttribute('src', 'http://files.test/f/tgt-1?f=320.jpg');
    await userEvent.click(screen.getByRole('button', { name: 'Cancelled' }));
    expect(screen.getByTestId('order-row-status')).toHaveTextContent('Order has been cancelled');
    expect(screen.getByRole('button', { name: 'Cancelled' })).toHaveAttribute('aria-pressed', 'true');
  });

  it.each([
    ['Your events', <MyEventsPage key="e" />, '/v2/user/events', 'Events are for users with the EVENT_ORGANIZER role'],
    [
      'Media packages',
      <MediaPackagesPage key="m" />,
      '/v2/user/mediaPackages',
      'Media packages are for users with the MEDIA role',
    ],
    [
      'Discount codes',
      <DiscountCodesPage key="d" />,
      '/v2/user/discountCodes',
      'Discount codes are for users with the MEDIA role',
    ],
  ])('%s refuses a user without the role with the reason', async (_title, page, path, reason) => {
    server.use(http.get(`http://api.test${path}`, () => HttpResponse.json({ error: reason }, { status: 403 })));
    renderPage(page);
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
  });

  it('lists media packages for a MEDIA user', async () => {
    server.use(
      http.get('http://api.test/v2/user/mediaPackages', () =>
        HttpResponse.json({
          mediaPackages: [
            {
              id: 1,
              name: 'Essentials',
              description: 'Two hours',
              priceCents: 25000,
              photoCount: 50,
              videoMinutes: 0,
              hours: 2,
              active: true,
            },
          ],
        }),
      ),
    );
    renderPage(<MediaPackagesPage />);
    expect(await screen.findByText('Essentials')).toBeInTheDocument();
    expect(screen.getByText(/\$250\.00/)).toBeInTheDocument();
  });

  it('points a visitor to log in instead of calling the API', () => {
    server.use(
      http.get('http://api.test/v2/user/eventOrders', () =>
        HttpResponse.json({ error: 'Not logged in' }, { status: 401 }),
      ),
    );
    renderPage(<OrdersPage />, {});
    expect(screen.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/user/login');
  });
});

describe('SettingsPage', () => {
  // The page's other sections (AccountSecurity.test.tsx tests them): loaded, quiet.
  beforeEach(() => {
    server.use(
      http.get('http://api.test/v2/user/sessions', () => HttpResponse.json({ sessions: [] })),
      http.get('http://api.test/v2/user/mailPreferences', () =>
        HttpResponse.json({ signIn: true, receipts: true, orderUpdates: true }),
      ),
    );
  });

  it('saves name, email and about, and the shared user takes the new name', async () => {
    let sent: Record<string, string> = {};
    server.use(
      http.get('http://api.test/v2/user/profile', () => HttpResponse.json(profile)),
      http.post('http://api.test/v2/user/updateProfile', async ({ request }) => {
        sent = Object.fromEntries(new URLSearchParams(await request.text()));
        return HttpResponse.json({ ...profile, username: sent.username, bio: sent.bio });
      }),
    );
    const { store } = renderPage(<SettingsPage />);
    const name = await screen.findByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Clara C.');
    await userEvent.clear(screen.getByLabelText('About you'));
    await userEvent.type(screen.getByLabelText('About you'), 'New bio');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(sent).toEqual({ username: 'Clara C.', email: 'clara@example.com', bio: 'New bio' });
    expect(store.getState().user?.username).toBe('Clara C.');
  });

  it("shows the API's reason beside the field it names, and focuses it", async () => {
    server.use(
      http.get('http://api.test/v2/user/profile', () => HttpResponse.json(profile)),
      http.post('http://api.test/v2/user/updateProfile', () =>
        HttpResponse.json({ error: 'An account with this email exists', field: 'email' }, { status: 409 }),
      ),
    );
    renderPage(<SettingsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('An account with this email exists'));
    await waitFor(() => expect(email).toHaveFocus());
  });

  it('shows every problem at once, each beside its field, before calling the API', async () => {
    let called = false;
    server.use(
      http.get('http://api.test/v2/user/profile', () => HttpResponse.json(profile)),
      http.post('http://api.test/v2/user/updateProfile', () => {
        called = true;
        return HttpResponse.json(profile);
      }),
    );
    renderPage(<SettingsPage />);
    await userEvent.clear(await screen.findByLabelText('Name'));
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'clara@');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter your name');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is invalid');
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(called).toBe(false);
  });
});

describe('LegalPage', () => {
  it.each(LEGAL_DOCUMENTS.map((d) => [d]))('%s has a title and sections of real text', (document) => {
    renderPage(<LegalPage document={document} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      /Terms of Service|Privacy Policy|Cookie Policy/,
    );
    const sections = screen.getAllByRole('heading', { level: 2 });
    expect(sections.length).toBeGreaterThanOrEqual(3);
  });
});
