import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as shared from '@marketplace/shared';
import { DEFAULT_AVATAR, type Role } from '@marketplace/shared';
import { API, logInAs, renderHeader, resetHarness, server, testSession } from '../test/harness.js';
import { cartItem } from '@marketplace/shared/test-utils';

const DESKTOP_WIDTH = window.innerWidth;
afterEach(() => {
  resetHarness();
  window.innerWidth = DESKTOP_WIDTH;
  vi.restoreAllMocks();
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** The raw cookie strings the page writes (jsdom keeps no attributes readable). */
function watchCookieWrites(): string[] {
  const writes: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  vi.spyOn(Document.prototype, 'cookie', 'set').mockImplementation(function (this: Document, value: string) {
    writes.push(value);
    descriptor.set!.call(this, value);
  });
  return writes;
}
const expiresInDays = (write: string) => (Date.parse(/expires=([^;]+)/i.exec(write)![1]!) - Date.now()) / DAY_MS;

const item = cartItem;

describe('header bar', () => {
  it('shows visitors the links, Log in, Sign Up and the cart with its count', () => {
    testSession().setState({ cart: [item('a')] });
    renderHeader('/events');
    expect(screen.getByRole('link', { name: 'EventMedia' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/events');
    expect(screen.getByRole('link', { name: 'Posts' })).toHaveAttribute('href', '/community');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    const cart = screen.getByRole('link', { name: 'Cart, 1 items' });
    expect(cart).toHaveAttribute('href', '/cart');
    expect(within(cart).getByTestId('badge')).toHaveTextContent('1');
    expect(screen.queryByRole('button', { name: 'Profile menu' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Messages/ })).toBeNull();
  });

  it("follows the shared store's cart, capping the badge at 10+", async () => {
    const { store } = renderHeader('/events');
    expect(within(screen.getByRole('link', { name: 'Cart, 0 items' })).queryByTestId('badge')).toBeNull();
    store.setState({ cart: Array.from({ length: 12 }, (_, i) => item(`i${i}`)) });
    const cart = await screen.findByRole('link', { name: 'Cart, 12 items' });
    expect(within(cart).getByTestId('badge')).toHaveTextContent('10+');
  });

  it('shows logged-in users messages, notifications, cart and the profile menu', async () => {
    logInAs();
    renderHeader('/events');
    expect(await screen.findByRole('button', { name: /^Messages, \d+ new$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Notifications, \d+ new$/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Cart/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Profile menu' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
  });

  it('offers Log in, not a profile menu for nobody, when the cookie says yes but userInfo answers 401', async () => {
    server.use(
      http.get(`${API}/userInfo`, () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })),
      http.get(`${API}/user/cart`, () => HttpResponse.json({ cart: [] })),
    );
    document.cookie = 'loggedIn=yes; path=/';
    const { store } = renderHeader('/events');
    await store.getState().load();
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Profile menu' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(document.cookie).toContain('loggedIn=no');
  });

  it.each([
    ['Log in', '/user/login'],
    ['Sign Up', '/user/signup'],
  ])('%s stores the current path in loginRedirect for one day', async (button, target) => {
    const writes = watchCookieWrites();
    renderHeader('/event/summer?x=1');
    await userEvent.click(screen.getByRole('button', { name: button }));
    expect(screen.getByTestId('where')).toHaveTextContent(target);
    expect(decodeURIComponent(document.cookie)).toContain('loginRedirect=/event/summer?x=1');
    const write = writes.find((w) => w.startsWith('loginRedirect='))!;
    expect(expiresInDays(write)).toBeCloseTo(1, 2);
  });

  it.each(['/user/login', '/user/signup', '/legal/terms-of-service', '/legal/privacy-policy', '/legal/cookie-policy'])(
    'shrinks to logo and name on %s',
    (path) => {
      logInAs();
      renderHeader(path);
      expect(screen.getByRole('link', { name: 'EventMedia' })).toBeInTheDocument();
      expect(screen.getAllByRole('link')).toHaveLength(1);
      expect(screen.queryByRole('button')).toBeNull();
      expect(screen.queryByRole('combobox')).toBeNull();
    },
  );
});

describe('layout by width', () => {
  // Which of the two layouts shows is CSS's choice (a media query at 768 px; e2e/tests/header.spec.ts
  // measures it in a browser): jsdom evaluates no media query, so these tests reach the side
  // menu's button as the hidden element it is on a wide screen.
  const hamburger = () => screen.getByRole('button', { name: 'Open menu', hidden: true });

  it('renders the same markup at every width, so a page rendered on the server hydrates with nothing moving', () => {
    const markupAt = (width: number) => {
      window.innerWidth = width;
      const { container, unmount } = renderHeader('/events');
      // useId's ids count up from one render to the next; they are not the layout.
      const html = container.innerHTML.replace(/_r_\w+_/g, 'id');
      unmount();
      return html;
    };
    const wide = markupAt(1280);
    expect(wide).toContain('Open menu');
    expect(markupAt(390)).toBe(wide);
  });

  it('the side menu opened by the hamburger holds the navigation, and following a link closes it', async () => {
    renderHeader('/events');
    expect(hamburger()).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(hamburger());
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    const nav = within(menu).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Events', 'Posts']);
    await userEvent.click(within(nav).getByRole('link', { name: 'Posts' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/community');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape closes the side menu', async () => {
    renderHeader('/events');
    await userEvent.click(hamburger());
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    await waitFor(() => expect(menu).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

// Where focus goes back to, the phone's buttons, is measured in a browser at a phone's width
// (e2e/tests/header.spec.ts): here they are hidden (jsdom evaluates no media query), and a hidden
// element takes no focus.
describe("a phone's search", () => {
  const searchButton = () => screen.getByRole('button', { name: 'Search', hidden: true });
  const box = () => screen.getByRole('combobox', { name: 'Search' });

  it('opens over the row with the focus in its box, and Escape closes it', async () => {
    renderHeader('/events');
    await userEvent.click(searchButton());
    expect(searchButton()).toHaveAttribute('aria-expanded', 'true');
    expect(box()).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(searchButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('its × closes it', async () => {
    renderHeader('/events');
    await userEvent.click(searchButton());
    await userEvent.click(screen.getByRole('button', { name: 'Close search', hidden: true }));
    expect(searchButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes once Enter opens the results, also when they are on the results page already', async () => {
    renderHeader('/search?q=jazz');
    await userEvent.click(searchButton());
    await userEvent.type(box(), 'rock{Enter}');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/search?q=rock'));
    expect(searchButton()).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('profile menu', () => {
  it.each([
    [[], ['Profile', 'Orders', 'Purchases', 'Settings']],
    [['DRIVER'], ['Profile', 'Orders', 'Purchases', 'Settings']],
    [['MEDIA'], ['Profile', 'Orders', 'Purchases', 'Media packages', 'Discount codes', 'Sales', 'Settings']],
    [['EVENT_ORGANIZER'], ['Profile', 'Events', 'Orders', 'Purchases', 'Settings']],
    [
      ['DRIVER', 'EVENT_ORGANIZER', 'MEDIA'],
      ['Profile', 'Events', 'Orders', 'Purchases', 'Media packages', 'Discount codes', 'Sales', 'Settings'],
    ],
  ] as [Role[], string[]][])('with roles %j holds %j and Logout', async (roles, entries) => {
    logInAs(roles);
    renderHeader('/events');
    const toggle = screen.getByRole('button', { name: 'Profile menu' });
    await userEvent.click(toggle);
    const menu = toggle.parentElement as HTMLElement;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual(
      entries.map((label) => [
        label,
        {
          Profile: '/user/me',
          Events: '/user/events',
          Orders: '/user/orders',
          'Media packages': '/user/mediaPackages',
          'Discount codes': '/user/discountCodes',
          Purchases: '/user/purchases',
          Sales: '/user/sales',
          Settings: '/settings/general',
        }[label],
      ]),
    );
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it.each([
    [['MEDIA'], true],
    [['DRIVER', 'EVENT_ORGANIZER'], false],
    [[], false],
  ] as [Role[], boolean][])('with roles %j offers Purchases, and Sales only to MEDIA (%s)', async (roles, sells) => {
    logInAs(roles);
    renderHeader('/events');
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    expect(screen.getByRole('link', { name: 'Purchases' })).toHaveAttribute('href', '/user/purchases');
    expect(screen.queryByRole('link', { name: 'Sales' })?.getAttribute('href') ?? null).toBe(
      sells ? '/user/sales' : null,
    );
  });

  it('closes with Escape and gives focus back to its toggle', async () => {
    logInAs();
    renderHeader('/events');
    const toggle = screen.getByRole('button', { name: 'Profile menu' });
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(toggle).toHaveFocus();
  });

  it('falls back to the generic picture when the profile picture is broken', () => {
    logInAs([], 'http://files.test/media/broken.jpg');
    renderHeader('/events');
    const img = within(screen.getByRole('button', { name: 'Profile menu' })).getByRole('img');
    expect(img).toHaveAttribute('src', 'http://files.test/media/broken.jpg');
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', DEFAULT_AVATAR);
  });

  it.each([
    ['200', () => HttpResponse.json({ loggedOut: true })],
    ['401', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })],
    ['status 0', () => HttpResponse.error()],
  ])('Logout answered %s: loggedIn is no for 7 days, home, live connection closed', async (_label, answer) => {
    server.use(http.post(`${API}/logout`, answer));
    // The store closes the page's real channel (the barrel's `live` is faked for the header only).
    const { live } = await vi.importActual<typeof shared>('@marketplace/shared');
    const close = vi.spyOn(live, 'close');
    const writes = watchCookieWrites();
    logInAs(['MEDIA']);
    document.cookie = 'loggedIn=yes; path=/';
    renderHeader('/user/me');
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    // The session ends first, then the menu navigates home once the call settled.
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
    expect(document.cookie).toContain('loggedIn=no');
    expect(expiresInDays(writes.find((w) => w.startsWith('loggedIn=no'))!)).toBeCloseTo(7, 2);
    expect(close).toHaveBeenCalled();
  });

  it('a Logout answered 500 keeps the user logged in where they are', async () => {
    server.use(http.post(`${API}/logout`, () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    logInAs(['MEDIA']);
    document.cookie = 'loggedIn=yes; path=/';
    // The menu's own logout, watched: once it has failed, what follows its failure has run.
    const { logout } = testSession().getState();
    const calls: Promise<void>[] = [];
    testSession().setState({ logout: () => (calls.push(logout()), calls[0]!) });
    renderHeader('/user/me');
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(calls).toHaveLength(1);
    await expect(calls[0]).rejects.toThrow();
    await act(async () => undefined);
    expect(screen.getByRole('button', { name: 'Profile menu' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/user/me');
    expect(document.cookie).toContain('loggedIn=yes');
  });
});
