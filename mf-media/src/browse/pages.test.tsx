import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cartItem,
  cartSummary,
  contentItem,
  renderWithSession,
  testSessionStore,
  useMswServer,
  type TestSession,
  videoItem,
} from '@marketplace/shared/test-utils';
import {
  MemoryRouter,
  Route,
  Routes,
  sessionStore,
  type EventSummary,
  type Post,
  type SessionStore,
} from '@marketplace/shared';
import { CartPage } from '../cart/CartPage.js';
import { CommunityPage } from './CommunityPage.js';
import { CreatorPage } from './CreatorPage.js';
import { EventPage } from './EventPage.js';
import { EventsPage } from './EventsPage.js';

const API = 'http://api.test/v2';
const server = useMswServer();
afterEach(() => {
  // The gallery adds to the page's own store (ContentGrid's addToSharedCart), whichever a test provides.
  sessionStore.setState({ cart: [] });
  vi.unstubAllGlobals();
});

const event = (over: Partial<EventSummary> = {}): EventSummary => ({
  eventIdentifier: 'summer-jazz-night-2026',
  name: 'Summer Jazz Night',
  description: 'Open-air jazz.',
  location: 'Harbour',
  startsAt: '2026-07-01T18:00:00.000Z',
  coverUrl: 'http://files.test/media/cover.png',
  cover: null,
  organizer: 'Olga Events',
  organizerProfileName: 'olga',
  itemCount: 3,
  ...over,
});

const renderAt = (path: string, options?: { session?: TestSession; store?: SessionStore }) =>
  renderWithSession(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/events" element={<EventsPage />} />
        <Route path="/event/:eventIdentifier" element={<EventPage />} />
        <Route path="/community" element={<CommunityPage />} />
        <Route path="/user/:profileName" element={<CreatorPage />} />
        <Route path="/cart" element={<CartPage />} />
      </Routes>
    </MemoryRouter>,
    options,
  );

describe('event page', () => {
  it('shows loading, then the gallery; a card opens the viewer at that item', async () => {
    const items = [contentItem({ name: 'Stage' }), videoItem({ name: 'Encore' }), contentItem({ name: 'Crowd' })];
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get(
        `${API}/events/:id`,
        async () => (await answered, HttpResponse.json({ event: event(), contentItems: items })),
      ),
    );
    renderAt('/event/summer-jazz-night-2026');
    // While loading: the gallery's shape in grey (a title, and cards), hidden from screen readers.
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Loading');
    expect(status.querySelectorAll('[aria-hidden="true"] > li')).toHaveLength(8);
    answer();
    expect(await screen.findByRole('heading', { name: 'Summer Jazz Night', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    // When and where, under the title: the venue's clock, whatever the viewer's time zone.
    const when = screen.getByText('Wed, 1 Jul 2026, 18:00');
    expect(when).toHaveAttribute('datetime', '2026-07-01T18:00:00.000Z');
    expect(when.parentElement).toHaveTextContent('Wed, 1 Jul 2026, 18:00 · Harbour');
    const gallery = screen.getByRole('list', { name: 'Gallery' });
    expect(within(gallery).getAllByRole('listitem')).toHaveLength(3);
    // Photos are thumbnails, the first row's loaded at once (the first first: it is likely the
    // page's largest paint); the video is a preview with its play icon.
    const firstPhoto = gallery.querySelector('li:first-child img');
    expect(firstPhoto).toHaveAttribute('loading', 'eager');
    expect(firstPhoto).toHaveAttribute('fetchpriority', 'high');
    expect(gallery.querySelector('img[src="/play-icon.svg"]')).toBeInTheDocument();

    await userEvent.click(within(gallery).getByRole('button', { name: 'Open Crowd' }));
    const viewer = screen.getByRole('dialog', { name: 'Crowd' });
    expect(within(viewer).getByText('3 of 3')).toBeInTheDocument();
    expect(within(viewer).getByRole('button', { name: 'Add to cart' })).toBeInTheDocument();
    // Anyone's gallery sells; it does not hand out downloads.
    expect(within(viewer).queryByRole('link', { name: 'Download' })).toBeNull();
  });

  it('shows the price on the cards of items for sale, in their currency', async () => {
    const items = [
      contentItem({ name: 'Stage', priceCents: 1500 }),
      contentItem({ name: 'Backstage', priceCents: 2500, currency: 'EUR' }),
      contentItem({ name: 'Private', canAddToCart: false, priceCents: 900 }),
    ];
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event: event(), contentItems: items })));
    renderAt('/event/summer-jazz-night-2026');
    const card = async (name: string) =>
      (await screen.findByRole('heading', { name, level: 2 })).closest('li') as HTMLElement;
    expect(within(await card('Stage')).getByText('$15.00')).toBeInTheDocument();
    expect(within(await card('Backstage')).getByText('€25.00')).toBeInTheDocument();
    expect(within(await card('Private')).queryByText(/[$€]\d/)).toBeNull();
  });

  it("shows photos the media pipeline made as pictures of their widths and formats, the first row first, and the viewer at the screen's width", async () => {
    const picture = (name: string) => ({
      width: 1200,
      height: 800,
      placeholder: 'data:image/webp;base64,UklGRg==',
      sources: ['avif', 'webp', 'jpeg'].map((format) => ({
        type: `image/${format}`,
        srcset: [320, 640, 1280]
          .map((w) => `http://files.test/media/media/content/${name}/r/${w}.${format} ${w}w`)
          .join(', '),
      })),
      src: `http://files.test/media/media/content/${name}/r/1280.jpg`,
    });
    const items = [
      contentItem({ name: 'Stage', image: picture('stage') }),
      contentItem({ name: 'Crowd', contentIdentifier: 'ci-2', image: picture('crowd') }),
    ];
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event: event(), contentItems: items })));
    renderAt('/event/summer-jazz-night-2026');
    const gallery = await screen.findByRole('list', { name: 'Gallery' });
    const first = gallery.querySelector('li:first-child picture');
    expect(
      [...(first?.querySelectorAll('source') ?? [])].map((s) => [s.getAttribute('type'), s.getAttribute('sizes')]),
    ).toEqual([
      ['image/avif', '(max-width: 480px) 100vw, (max-width: 960px) 50vw, 320px'],
      ['image/webp', '(max-width: 480px) 100vw, (max-width: 960px) 50vw, 320px'],
      ['image/jpeg', '(max-width: 480px) 100vw, (max-width: 960px) 50vw, 320px'],
    ]);
    const img = first?.querySelector('img');
    expect([img?.getAttribute('loading'), img?.getAttribute('fetchpriority'), img?.getAttribute('width')]).toEqual([
      'eager',
      'high',
      '1200',
    ]);
    expect(gallery.querySelector('li:nth-child(2) picture img')?.getAttribute('fetchpriority')).toBeNull();

    await userEvent.click(within(gallery).getByRole('button', { name: 'Open Crowd' }));
    const shown = within(screen.getByRole('dialog', { name: 'Crowd' })).getByAltText('Crowd');
    expect(shown.closest('picture')?.querySelector('source')?.getAttribute('sizes')).toBe('min(1100px, 100vw)');
  });

  it('shows a photo the media pipeline is still making as processing, in the grid and the viewer, and a video as the spec says', async () => {
    const items = [
      contentItem({ name: 'Stage', contentUrl: '', thumbnailUrl: null, processing: true }),
      contentItem({
        name: 'Clip',
        contentIdentifier: 'ci-2',
        contentType: 'video/mp4',
        contentUrl: '',
        thumbnailUrl: null,
        processing: true,
      }),
    ];
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event: event(), contentItems: items })));
    renderAt('/event/summer-jazz-night-2026');
    const gallery = await screen.findByRole('list', { name: 'Gallery' });
    const [photo, video] = within(gallery).getAllByRole('listitem');
    expect(within(photo!).getByRole('status').textContent).toBe('Processing…');
    expect(within(video!).getByText('Video preview is processing')).toBeTruthy();
    expect(gallery.querySelectorAll('img, picture')).toHaveLength(0);

    await userEvent.click(within(gallery).getByRole('button', { name: 'Open Stage' }));
    expect(within(screen.getByRole('dialog', { name: 'Stage' })).getByRole('status').textContent).toBe('Processing…');
  });

  it('opens the viewer from the keyboard', async () => {
    server.use(
      http.get(`${API}/events/:id`, () =>
        HttpResponse.json({ event: event(), contentItems: [contentItem({ name: 'Stage' })] }),
      ),
    );
    renderAt('/event/summer-jazz-night-2026');
    await screen.findByRole('button', { name: 'Open Stage' });
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Open Stage' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Stage' })).toBeInTheDocument();
  });

  it('says when there is nothing yet, and when loading failed', async () => {
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event: event(), contentItems: [] })));
    const view = renderAt('/event/summer-jazz-night-2026');
    expect(await screen.findByText('No photos or videos yet.')).toBeInTheDocument();
    view.unmount();
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    renderAt('/event/summer-jazz-night-2026');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be loaded');
  });

  it('shows an event the API does not know as not found, with a way back instead of a retry', async () => {
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ error: 'Event not found' }, { status: 404 })));
    renderAt('/event/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no event at this address.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse events' })).toHaveAttribute('href', '/events');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a profile name nobody has as not found', async () => {
    server.use(
      http.get(`${API}/profiles/:profileName`, () =>
        HttpResponse.json({ error: 'Profile not found' }, { status: 404 }),
      ),
    );
    renderAt('/user/nobody-here');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no one with this profile name.')).toBeInTheDocument();
  });

  it('adds to the shared cart from the viewer', async () => {
    const item = contentItem({ name: 'Stage' });
    server.use(
      http.get(`${API}/events/:id`, () => HttpResponse.json({ event: event(), contentItems: [item] })),
      http.post(`${API}/user/cart/addItem`, () => HttpResponse.json({ cart: [cartItem(item.contentIdentifier)] })),
    );
    renderAt('/event/summer-jazz-night-2026');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Stage' }));
    const viewer = screen.getByRole('dialog');
    await userEvent.click(within(viewer).getByRole('button', { name: 'Add to cart' }));
    expect(await within(viewer).findByText('Added to cart')).toBeInTheDocument();
    expect(sessionStore.getState().cart.map((c) => c.identifier)).toEqual([item.contentIdentifier]);
    await userEvent.click(within(viewer).getByRole('button', { name: 'Add to cart' }));
    expect(await within(viewer).findByText('Item already in cart')).toBeInTheDocument();
  });
});

describe('events page', () => {
  it('lists events and prefetches an event page once its link is within 200 px of the viewport', async () => {
    const observers: {
      callback: IntersectionObserverCallback;
      options?: IntersectionObserverInit;
      targets: Element[];
    }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        targets: Element[] = [];
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          observers.push({ callback, options, targets: this.targets });
        }
        observe(el: Element) {
          this.targets.push(el);
        }
        disconnect() {}
      },
    );
    const fetched: string[] = [];
    server.use(
      http.get(`${API}/events`, () =>
        HttpResponse.json({
          events: [event(), event({ eventIdentifier: 'winter-gala', name: 'Winter Gala' })],
          more: false,
        }),
      ),
      http.get(`${API}/events/:id`, ({ params }) => {
        fetched.push(String(params.id));
        return HttpResponse.json({ event: event(), contentItems: [] });
      }),
    );
    renderAt('/events');
    expect(await screen.findByRole('link', { name: 'Winter Gala' })).toHaveAttribute('href', '/event/winter-gala');
    await waitFor(() => expect(observers).toHaveLength(2));
    expect(observers[0]!.options?.rootMargin).toBe('200px');
    const near = observers[1]!;
    near.callback(
      [{ isIntersecting: true, target: near.targets[0]! } as IntersectionObserverEntry],
      {} as IntersectionObserver,
    );
    await waitFor(() => expect(fetched).toEqual(['winter-gala']));
  });

  it("says 'No events yet.' when there are none", async () => {
    server.use(http.get(`${API}/events`, () => HttpResponse.json({ events: [], more: false })));
    renderAt('/events');
    expect(await screen.findByText('No events yet.')).toBeInTheDocument();
  });
});

describe('community page', () => {
  const post = (over: Partial<Post> = {}): Post => ({
    id: 1,
    author: { profileName: 'mia', username: 'Mia Lens', profilePicture: null },
    text: 'Backstage tonight <script>alert(1)</script>',
    createdAt: '2026-11-20T10:00:00.000Z',
    contentItem: null,
    ...over,
  });

  it('shows posts as text, with their photo opening in the viewer', async () => {
    server.use(
      http.get(`${API}/posts`, () =>
        HttpResponse.json({
          posts: [post(), post({ id: 2, text: 'With photo', contentItem: contentItem({ name: 'Backstage' }) })],
          more: false,
        }),
      ),
    );
    renderAt('/community');
    expect(await screen.findByText('Backstage tonight <script>alert(1)</script>')).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Mia Lens' })[0]).toHaveAttribute('href', '/user/mia');
    await userEvent.click(screen.getByRole('button', { name: 'Open Backstage' }));
    expect(within(screen.getByRole('dialog')).getByText('1 of 1')).toBeInTheDocument();
  });
});

describe('creator page', () => {
  const ESSENTIALS = {
    id: 11,
    name: 'Essentials',
    description: 'Two hours of coverage.',
    priceCents: 25000,
    photoCount: 50,
    videoMinutes: 0,
  };
  const serveProfile = (
    items = [
      contentItem({
        name: 'Solo',
        filePath: 'media/content/ci-1/a/1280.jpg',
        filename: 'solo.jpg',
        originalUrl: 'http://files.test/files/content/ci-1?f=original&exp=1&sig=s',
      }),
    ],
    packages = [ESSENTIALS],
  ) =>
    server.use(
      http.get(`${API}/profiles/:profileName`, ({ params }) =>
        HttpResponse.json({
          profile: {
            profileName: params.profileName,
            username: 'Mia Lens',
            profilePicture: null,
            bio: 'Concerts.',
            roles: ['MEDIA'],
            memberSince: '2025-01-01T00:00:00.000Z',
          },
          contentItems: items,
          packages,
        }),
      ),
    );

  it("lets a member book a package: every missing answer shown at once, the event's time on its venue's clock, then the new order", async () => {
    serveProfile();
    const session: TestSession = {
      isLoggedIn: true,
      user: { profileName: 'clara', username: 'Clara', roles: ['DRIVER'], profilePicture: null },
    };
    const sent: Record<string, FormDataEntryValue>[] = [];
    server.use(
      http.post(`${API}/bookings`, async ({ request }) => {
        const fields = Object.fromEntries((await request.formData()).entries());
        sent.push(fields);
        return fields.discountCode === 'MAX10'
          ? HttpResponse.json(
              { error: "The code MAX10 is another photographer's", field: 'discountCode' },
              { status: 400 },
            )
          : HttpResponse.json({ orderId: 'ord-abc12345' });
      }),
    );
    renderAt('/user/mia', { session });
    const packages = await screen.findByRole('list', { name: 'Packages' });
    expect(packages).toHaveTextContent('$250.00');
    await userEvent.click(within(packages).getByRole('button', { name: 'Book Essentials' }));
    const form = screen.getByRole('dialog', { name: 'Book Mia Lens: Essentials' });
    await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    for (const label of ['Event', 'Date and time', 'Place', 'Guests'])
      expect(within(form).getByLabelText(label)).toHaveAccessibleDescription('Fill this in');
    await waitFor(() => expect(within(form).getByLabelText('Event')).toHaveFocus());
    // Not one of the user's events to choose: they organize none.
    expect(within(form).queryByLabelText('Which event?')).toBeNull();
    expect(sent).toEqual([]);
    await userEvent.type(within(form).getByLabelText('Event'), 'Spring gala');
    await userEvent.type(within(form).getByLabelText('Date and time'), '2027-05-01T18:30');
    await userEvent.type(within(form).getByLabelText('Place'), 'Riverside Hall');
    await userEvent.type(within(form).getByLabelText('Guests'), '80');
    await userEvent.type(within(form).getByLabelText('Discount code (optional)'), 'MAX10');
    await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(await within(form).findByText("The code MAX10 is another photographer's")).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByLabelText('Discount code (optional)')).toHaveFocus());
    await userEvent.clear(within(form).getByLabelText('Discount code (optional)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({
      photographer: 'mia',
      packageId: '11',
      eventName: 'Spring gala',
      eventDate: '2027-05-01T18:30Z',
      location: 'Riverside Hall',
      guests: '80',
      requirements: '',
    });
  });

  it('lets an organizer book one of their upcoming events, which the request names instead of describing', async () => {
    serveProfile();
    const session: TestSession = {
      isLoggedIn: true,
      user: { profileName: 'olga', username: 'Olga', roles: ['EVENT_ORGANIZER'], profilePicture: null },
    };
    const sent: Record<string, FormDataEntryValue>[] = [];
    server.use(
      http.get(`${API}/user/events`, () =>
        HttpResponse.json({
          events: [
            {
              ...event({ eventIdentifier: 'gala', name: 'Winter Gala', startsAt: '2099-01-10T19:00:00.000Z' }),
              published: true,
              coverProcessing: false,
            },
            {
              ...event({ eventIdentifier: 'old', name: 'Last year', startsAt: '2020-01-10T19:00:00.000Z' }),
              published: true,
              coverProcessing: false,
            },
          ],
        }),
      ),
      http.post(`${API}/bookings`, async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()));
        return HttpResponse.json({ orderId: 'ord-abc12345' });
      }),
    );
    renderAt('/user/mia', { session });
    await userEvent.click(await screen.findByRole('button', { name: 'Book Essentials' }));
    const form = screen.getByRole('dialog', { name: 'Book Mia Lens: Essentials' });
    const which = await within(form).findByLabelText('Which event?');
    // Upcoming ones only, and a new one.
    expect(
      within(which)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['A new event', 'Winter Gala, Sat, 10 Jan 2099, 19:00']);
    // A new event asks for it; one of theirs is described already.
    expect(within(form).getByLabelText('Place')).toBeInTheDocument();
    await userEvent.selectOptions(which, 'Winter Gala, Sat, 10 Jan 2099, 19:00');
    expect(within(form).queryByLabelText('Place')).toBeNull();
    await userEvent.type(within(form).getByLabelText('Guests'), '300');
    await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      photographer: 'mia',
      packageId: '11',
      eventIdentifier: 'gala',
      guests: '300',
      requirements: '',
    });
  });

  it('offers no packages on their own page, and sends a visitor to log in first', async () => {
    serveProfile();
    const session: TestSession = {
      isLoggedIn: true,
      user: { profileName: 'mia', username: 'Mia Lens', roles: ['MEDIA'], profilePicture: null },
    };
    const own = renderAt('/user/mia', { session });
    await screen.findByRole('heading', { name: 'Mia Lens' });
    expect(screen.queryByRole('list', { name: 'Packages' })).toBeNull();
    own.unmount();
    renderAt('/user/mia');
    await userEvent.click(await screen.findByRole('button', { name: 'Book Essentials' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(decodeURIComponent(document.cookie)).toContain('loginRedirect=/user/mia');
  });

  it("offers Download of one's own content: the original, by the API's signed link", async () => {
    serveProfile();
    const session: TestSession = {
      isLoggedIn: true,
      user: { profileName: 'mia', username: 'Mia Lens', roles: ['MEDIA'], profilePicture: null },
    };
    renderAt('/user/mia', { session });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Solo' }));
    expect(within(screen.getByRole('dialog')).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'http://files.test/files/content/ci-1?f=original&exp=1&sig=s',
    );
  });

  it('offers no Download of an item the API gives no original of', async () => {
    serveProfile([contentItem({ name: 'Solo', originalUrl: null })]);
    const session: TestSession = {
      isLoggedIn: true,
      user: { profileName: 'mia', username: 'Mia Lens', roles: ['MEDIA'], profilePicture: null },
    };
    renderAt('/user/mia', { session });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Solo' }));
    expect(within(screen.getByRole('dialog')).queryByRole('link', { name: 'Download' })).toBeNull();
  });

  it('shows a video for sale the visitor has not bought as its poster, saying so in its name and on it, with nothing to play', async () => {
    const poster = { width: 640, height: 360, placeholder: '', sources: [], src: 'http://files.test/media/p/640.jpg' };
    serveProfile([videoItem({ name: 'Clip', contentUrl: '', locked: true, image: poster })]);
    renderAt('/user/mia');
    const card = await screen.findByRole('button', { name: 'Open Clip, buy to watch' });
    expect(within(card).getByText('Buy to watch')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Clip (preview)' })).toHaveAttribute('src', poster.src);
    expect(card.querySelector('video')).toBeNull();
  });

  it("does not offer Download on someone else's page", async () => {
    serveProfile();
    renderAt('/user/mia');
    expect(await screen.findByRole('heading', { name: 'Mia Lens' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open Solo' }));
    expect(within(screen.getByRole('dialog')).queryByRole('link', { name: 'Download' })).toBeNull();
  });
});

describe('cart page', () => {
  // The order summary beside the items (its own tests: cart/CartPage.test.tsx).
  beforeEach(() =>
    server.use(http.get(`${API}/user/cart/summary`, () => HttpResponse.json({ summary: cartSummary() }))),
  );

  it('lists the items and removes one', async () => {
    const session: TestSession = { cart: [cartItem('a'), cartItem('b')], loaded: true };
    server.use(http.post(`${API}/user/cart/removeItem`, () => HttpResponse.json({ cart: [cartItem('b')] })));
    renderAt('/cart', { session });
    expect(within(screen.getByRole('list', { name: 'Cart items' })).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Remove a' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
  });

  it("shows an item's picture as the media pipeline made it, at the row's small size", async () => {
    const image = {
      width: 1200,
      height: 800,
      placeholder: 'data:image/webp;base64,UklGRg==',
      sources: [{ type: 'image/webp', srcset: 'http://files.test/media/media/content/a/r/320.webp 320w' }],
      src: 'http://files.test/media/media/content/a/r/320.jpg',
    };
    const session: TestSession = { cart: [{ ...cartItem('a'), image }], loaded: true };
    renderAt('/cart', { session });
    const row = within(screen.getByRole('list', { name: 'Cart items' })).getByRole('listitem');
    expect(row.querySelector('source')?.getAttribute('sizes')).toBe('64px');
    expect([row.querySelector('img')?.getAttribute('src'), row.querySelector('img')?.getAttribute('width')]).toEqual([
      image.src,
      '64',
    ]);
  });

  it('swallows a failed removal and keeps the item', async () => {
    const store = testSessionStore({ cart: [cartItem('a')], loaded: true });
    server.use(http.post(`${API}/user/cart/removeItem`, () => HttpResponse.json({ error: 'down' }, { status: 503 })));
    const removal = vi.spyOn(store.getState(), 'removeFromCart');
    renderAt('/cart', { store });
    await userEvent.click(screen.getByRole('button', { name: 'Remove a' }));
    // Once the removal has failed and been dealt with.
    await waitFor(() => expect(removal).toHaveBeenCalledWith('a'));
    await act(() => removal.mock.results[0]?.value);
    expect(screen.getByRole('button', { name: 'Remove a' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows its rows loading until the session has the cart, then says when it is empty', async () => {
    const { store } = renderAt('/cart', { session: { cart: [], loaded: false } });
    expect(screen.getByRole('status')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Your cart is empty.')).toBeNull();
    act(() => store.setState({ loaded: true }));
    expect(await screen.findByText('Your cart is empty.')).toBeInTheDocument();
  });
});
