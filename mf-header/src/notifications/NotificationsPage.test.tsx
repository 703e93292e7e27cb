import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  type Notification,
  type NotificationCounts,
} from '@marketplace/shared';
import { notification, publish, renderWithSession } from '@marketplace/shared/test-utils';
import { HeaderBar } from '../header/HeaderBar.js';
import { API, logInAs, resetHarness, sentTo, server, testSession } from '../test/harness.js';
import { NotificationsPage } from './NotificationsPage.js';

afterEach(() => {
  resetHarness();
  document.cookie = 'loginRedirect=; max-age=0; path=/';
});

const countsOf = (list: Notification[]): NotificationCounts => ({
  total: list.length,
  new: list.filter((n) => n.status === 'NEW').length,
  unread: list.filter((n) => n.status !== 'READ').length,
});

/**
 * The API's notification centre over `all` (newest first), `size` a page: the cursor is the index
 * the next page starts at. Answers what the list holds when each request comes in.
 */
function serveCentre(all: Notification[], size = 10) {
  let answerMarkAll!: () => void;
  const markAllAnswered = new Promise<void>((resolve) => (answerMarkAll = resolve));
  const held = { list: all, answerMarkAll };
  server.use(
    http.get(`${API}/notifications/all`, ({ request }) => {
      const from = Number(new URL(request.url).searchParams.get('cursor') ?? 0);
      const next = from + size < held.list.length ? String(from + size) : null;
      return HttpResponse.json({
        notifications: held.list.slice(from, from + size),
        nextCursor: next,
        counts: countsOf(held.list),
      });
    }),
    // Answered when the test says: what the page and the header show before is theirs, not the server's answer.
    http.post(`${API}/notifications/markAllRead`, async () => {
      await markAllAnswered;
      const updated = held.list.filter((n) => n.status !== 'READ').length;
      held.list = held.list.map((n) => ({ ...n, status: 'READ' }));
      return HttpResponse.json({ updated });
    }),
    // The dropdown's list of the same notifications.
    http.get(`${API}/notifications`, () => HttpResponse.json({ notifications: held.list, more: false })),
  );
  return held;
}

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

/** The page at /notifications as the shell shows it: under the header, with the location shown elsewhere. */
const renderPage = () =>
  renderWithSession(
    <MemoryRouter initialEntries={['/notifications']}>
      <HeaderBar />
      <Routes>
        <Route path="/notifications" element={<NotificationsPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    { store: testSession() },
  );

const pageList = () => screen.findByRole('list', { name: 'All notifications' });
const entries = () => within(screen.getByRole('list', { name: 'All notifications' })).getAllByRole('listitem');
const bell = () => screen.getByRole('button', { name: /^Notifications,/ });
const badge = () => within(bell()).queryByTestId('badge');

describe('the notifications page', () => {
  it('asks a visitor to log in, and remembers to come back here', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByText(/to see your notifications/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'log in' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/user/login');
    expect(document.cookie).toContain('loginRedirect=/notifications');
    expect(sentTo('/notifications/all')).toHaveLength(0);
  });

  it('lists the notifications newest first, unread ones bold, each linking to the thing it names', async () => {
    serveCentre([
      notification({ status: 'NEW', content: 'Your order ord-1005 moved.', link: '/eventorder/ord-1005' }),
      notification({ status: 'UNREAD', content: 'New photos at the gala.', link: '/event/winter-gala-2026' }),
      notification({ status: 'READ', content: 'Mia shared photos.', link: '/user/mia' }),
      notification({ status: 'READ', content: 'Nowhere to go.', link: 'javascript:alert(1)' }),
    ]);
    logInAs();
    renderPage();
    await pageList();
    expect(entries().map((li) => li.dataset.status)).toEqual(['NEW', 'UNREAD', 'READ', 'READ']);
    expect(screen.getByRole('link', { name: /ord-1005/ })).toHaveAttribute('href', '/eventorder/ord-1005');
    expect(screen.getByRole('link', { name: /gala/ })).toHaveAttribute('href', '/event/winter-gala-2026');
    expect(screen.getByRole('link', { name: /Mia shared/ })).toHaveAttribute('href', '/user/mia');
    expect(screen.queryByRole('link', { name: /Nowhere/ })).toBeNull();
    // Bold is not seen by a screen reader: unread ones say so.
    expect(entries().map((li) => within(li).queryByText('Unread:') !== null)).toEqual([true, true, false, false]);
    expect(screen.getByText('2 unread of 4')).toBeInTheDocument();
  });

  it("loads more with the page before's cursor until there is no more, each shown once", async () => {
    const all = Array.from({ length: 12 }, (_, i) => notification({ status: 'READ', content: `Number ${i + 1}.` }));
    serveCentre(all, 5);
    logInAs();
    renderPage();
    await pageList();
    expect(entries()).toHaveLength(5);
    expect(sentTo('/notifications/all')[0]?.query.has('cursor')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entries()).toHaveLength(10));
    expect(sentTo('/notifications/all')[1]?.query.get('cursor')).toBe('5');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entries()).toHaveLength(12));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(entries().map((li) => li.textContent?.replace(/\d\d\/.*$/, ''))).toEqual(all.map((n) => n.content));
  });

  it('opening one marks it read and goes to its page', async () => {
    const order = notification({ status: 'NEW', content: 'Your order ord-1005 moved.', link: '/eventorder/ord-1005' });
    serveCentre([order]);
    logInAs();
    renderPage();
    await pageList();
    await userEvent.click(screen.getByRole('link', { name: /ord-1005/ }));
    expect(screen.getByTestId('where')).toHaveTextContent('/eventorder/ord-1005');
    await waitFor(() => expect(sentTo('/updateNotificationStatus')).toHaveLength(1));
    expect(new URLSearchParams(sentTo('/updateNotificationStatus')[0]?.body)).toEqual(
      new URLSearchParams({ status: 'READ', notificationId: String(order.id) }),
    );
  });

  it("each one's menu marks it read or removes it", async () => {
    const [first, second] = [notification({ status: 'UNREAD' }), notification({ status: 'NEW' })];
    serveCentre([first, second]);
    logInAs();
    renderPage();
    await pageList();
    const [one] = entries();
    await userEvent.click(within(one as HTMLElement).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Mark as read' }));
    expect(entries().map((li) => li.dataset.status)).toEqual(['READ', 'NEW']);
    expect(screen.getByText('1 unread of 2')).toBeInTheDocument();
    const [, two] = entries();
    await userEvent.click(within(two as HTMLElement).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Remove notification' }));
    await waitFor(() => expect(entries()).toHaveLength(1));
    expect(sentTo('/deleteNotification')).toHaveLength(1);
    expect(screen.getByText('0 unread of 1')).toBeInTheDocument();
  });

  it("'Mark all as read' makes every one read on the page, in the dropdown and in the badge", async () => {
    const centre = serveCentre([
      notification({ status: 'NEW', content: 'First.' }),
      notification({ status: 'NEW', content: 'Second.' }),
      notification({ status: 'UNREAD', content: 'Third.' }),
    ]);
    logInAs();
    renderPage();
    await pageList();
    await waitFor(() => expect(badge()).toHaveTextContent('2'));
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(entries().map((li) => li.dataset.status)).toEqual(['READ', 'READ', 'READ']);
    expect(badge()).toBeNull();
    await waitFor(() => expect(sentTo('/notifications/markAllRead')).toHaveLength(1));
    expect(screen.getByText('0 unread of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    // Both lists load again from the server, which agrees.
    centre.answerMarkAll();
    await waitFor(() => expect(sentTo('/notifications/all').length).toBeGreaterThan(1));
    await userEvent.click(bell());
    const dropdown = screen.getByRole('list', { name: 'Notifications' });
    expect(
      within(dropdown)
        .getAllByRole('listitem')
        .map((li) => li.dataset.status),
    ).toEqual(['READ', 'READ', 'READ']);
    expect(badge()).toBeNull();
  });

  it('reading one in the dropdown makes it read on the page too', async () => {
    serveCentre([notification({ status: 'UNREAD', content: 'Read me.' }), notification({ status: 'READ' })]);
    logInAs();
    renderPage();
    await pageList();
    await userEvent.click(bell());
    const dropdown = screen.getByRole('list', { name: 'Notifications' });
    const [first] = within(dropdown).getAllByRole('listitem');
    await userEvent.click(within(first as HTMLElement).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Mark as read' }));
    expect(entries().map((li) => li.dataset.status)).toEqual(['READ', 'READ']);
    expect(screen.getByText('0 unread of 2')).toBeInTheDocument();
  });

  it('a live notification goes on top of the page, once, and into the badge', async () => {
    serveCentre([notification({ status: 'READ', content: 'Older.' })]);
    logInAs();
    renderPage();
    await pageList();
    const live = notification({ status: 'NEW', content: 'Just now.' });
    publish('notifications', 'nora', live);
    publish('notifications', 'nora', live);
    await waitFor(() => expect(entries()).toHaveLength(2));
    expect(entries()[0]).toHaveTextContent('Just now.');
    expect(badge()).toHaveTextContent('1');
    expect(screen.getByText('1 unread of 2')).toBeInTheDocument();
  });

  it("says 'No notifications' when there are none", async () => {
    serveCentre([]);
    logInAs();
    renderPage();
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});
