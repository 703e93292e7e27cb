import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notification } from '@marketplace/shared/test-utils';
import type * as shared from '@marketplace/shared';
import { confirmSubscription, publish } from '@marketplace/shared/test-utils';
import { API, logInAs, renderHeader, resetHarness, sentTo, server } from '../test/harness.js';
import { leaveApp } from '../useFollow.js';
import { reachedLoadPoint } from './FeedList.js';

afterEach(resetHarness);

const serve = (...pages: { notifications: shared.Notification[]; more: boolean }[]) =>
  server.use(
    http.get(`${API}/notifications`, ({ request }) => {
      const pageNo = Number(new URL(request.url).searchParams.get('pageNo') ?? 0);
      return HttpResponse.json(pages[pageNo] ?? { notifications: [], more: false });
    }),
  );

/**
 * The notifications endpoint answering what the server held when each request came in; while
 * `held` is set, answers wait for it, so a later change on the server lands before them.
 */
function serveAsOfRequest(initial: shared.Notification[]) {
  const listed: { has: shared.Notification[]; held?: Promise<void> } = { has: initial };
  server.use(
    http.get(`${API}/notifications`, async () => {
      const answer = { notifications: listed.has, more: false };
      await listed.held;
      return HttpResponse.json(answer);
    }),
  );
  return listed;
}

const bell = () => screen.getByRole('button', { name: /^Notifications,/ });
const list = () => screen.getByRole('list', { name: 'Notifications' });
const entries = () => within(list()).getAllByRole('listitem');
/** A promise the test settles, and the function that settles it. */
function gate(): [Promise<void>, () => void] {
  let open!: () => void;
  return [new Promise<void>((resolve) => (open = resolve)), () => open()];
}
/** How many loads of the dropdown's list are under way: a load starts at once, in the scroll or press that asks for it. */
const loadsUnderWay = (client: QueryClient) => client.isFetching({ queryKey: ['getNotifications'] });
const badge = () => within(bell()).queryByTestId('badge');

/** Makes the list 1000 px tall in a 360 px window (jsdom lays nothing out) and scrolls it. */
function scrollListTo(top: number) {
  const el = list();
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: 1000 });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: 360 });
  el.scrollTop = top;
  fireEvent.scroll(el);
}

async function openBell() {
  await userEvent.click(bell());
  return list();
}

describe('notification dropdown', () => {
  it('counts NEW ones in the badge, capped at 10+', async () => {
    serve({ notifications: Array.from({ length: 10 }, () => notification()), more: false });
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('10+'));
    expect(bell()).toHaveAccessibleName('Notifications, 10 new');
  });

  it('shows the exact count up to nine, and none without NEW ones', async () => {
    serve({
      notifications: [...Array.from({ length: 9 }, () => notification()), notification({ status: 'UNREAD' })],
      more: false,
    });
    logInAs();
    const view = renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent(/^9$/));
    view.unmount();
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    resetHarness();
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Notifications, 0 new' });
    expect(badge()).toBeNull();
  });

  it('on opening tells the server to clear new ones, and NEW becomes UNREAD', async () => {
    serve({ notifications: [notification({ status: 'NEW' }), notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    await openBell();
    expect(entries().map((li) => li.dataset.status)).toEqual(['UNREAD', 'READ']);
    expect(badge()).toBeNull();
    await waitFor(() => expect(sentTo('/clearNewNotifications')).toHaveLength(1));
  });

  it('opens without making the request to clear in the press: it is made once the list has painted', async () => {
    serve({ notifications: [notification({ status: 'NEW' })], more: false });
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    const fetches = vi.spyOn(globalThis, 'fetch');
    const clears = () => fetches.mock.calls.filter(([url]) => String(url).includes('/clearNewNotifications'));
    act(() => bell().click());
    expect(clears()).toHaveLength(0);
    await waitFor(() => expect(clears()).toHaveLength(1));
    await waitFor(() => expect(badge()).toBeNull());
    fetches.mockRestore();
  });

  it('on opening tells the server to clear when a NEW one may be on a page not loaded yet', async () => {
    serve(
      { notifications: [notification({ status: 'UNREAD' })], more: true },
      { notifications: [notification({ status: 'NEW' })], more: false },
    );
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Notifications, 0 new' });
    await openBell();
    await waitFor(() => expect(sentTo('/clearNewNotifications')).toHaveLength(1));
  });

  it('on opening tells the server to clear when the first load failed', async () => {
    server.use(http.get(`${API}/notifications`, () => HttpResponse.json({ error: 'down' }, { status: 503 })));
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('No notifications');
    await waitFor(() => expect(sentTo('/clearNewNotifications')).toHaveLength(1));
  });

  it('spares the call only when the whole list is loaded and nothing in it is NEW', async () => {
    serve({ notifications: [notification({ status: 'UNREAD' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText(/Notification/);
    await userEvent.click(bell());
    await userEvent.click(bell());
    expect(sentTo('/clearNewNotifications')).toHaveLength(0);
  });

  it('clears a NEW one that arrived live, with nothing NEW loaded', async () => {
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Notifications, 0 new' });
    publish('notifications', 'nora', notification({ status: 'NEW', content: 'Live one' }));
    await screen.findByRole('button', { name: 'Notifications, 1 new' });
    await openBell();
    await waitFor(() => expect(sentTo('/clearNewNotifications')).toHaveLength(1));
    expect(badge()).toBeNull();
  });

  // Issue 40, item 3: the API's outbox delivers at least once.
  it('shows a notification delivered twice once: the copy neither adds an entry nor makes it NEW again', async () => {
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Notifications, 0 new' });
    const twice = notification({ status: 'NEW', content: 'Delivered twice' });
    publish('notifications', 'nora', twice);
    await screen.findByRole('button', { name: 'Notifications, 1 new' });
    await openBell();
    expect(badge()).toBeNull();
    publish('notifications', 'nora', twice);
    await waitFor(() => expect(entries()).toHaveLength(2));
    expect(entries().map((li) => li.dataset.status)).toEqual(['UNREAD', 'READ']);
    expect(bell()).toHaveAccessibleName('Notifications, 0 new');
  });

  it('clicking an entry makes it READ on the server and follows its site link', async () => {
    const n = notification({ status: 'UNREAD', content: 'Your order is ready', link: '/eventorder/abc' });
    serve({ notifications: [n], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await userEvent.click(await screen.findByRole('button', { name: 'Your order is ready' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/eventorder/abc');
    await waitFor(() =>
      expect(sentTo('/updateNotificationStatus')[0]?.body).toBe(`status=READ&notificationId=${n.id}`),
    );
  });

  it.each(['javascript:alert(1)', 'data:text/html,<b>x</b>', '//evil.example/x'])(
    'never follows the link %s',
    async (link) => {
      const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
      serve({ notifications: [notification({ content: 'Click me', link })], more: false });
      logInAs();
      renderHeader('/events');
      await openBell();
      await userEvent.click(await screen.findByRole('button', { name: 'Click me' }));
      expect(screen.getByTestId('where')).toHaveTextContent(/^\/events$/);
      expect(leave).not.toHaveBeenCalled();
      // It still counts as read: the user did open it.
      expect(entries()[0]).toHaveAttribute('data-status', 'READ');
      leave.mockRestore();
    },
  );

  it('leaves the app for an http(s) link', async () => {
    const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
    serve({
      notifications: [notification({ content: 'Elsewhere', link: 'https://partner.example/offer' })],
      more: false,
    });
    logInAs();
    renderHeader();
    await openBell();
    await userEvent.click(await screen.findByRole('button', { name: 'Elsewhere' }));
    expect(leave).toHaveBeenCalledWith('https://partner.example/offer');
    leave.mockRestore();
  });

  it('renders server text as text, never as HTML', async () => {
    serve({ notifications: [notification({ content: '<img src=x onerror="alert(1)"><b>bold</b>' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    expect(await screen.findByText('<img src=x onerror="alert(1)"><b>bold</b>')).toBeInTheDocument();
    expect(list().querySelector('img, b')).toBeNull();
  });

  it("'Mark as read' makes an entry READ and keeps the dropdown open", async () => {
    const n = notification({ status: 'UNREAD', content: 'New photos' });
    serve({ notifications: [n], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('New photos');
    await userEvent.click(within(list()).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Mark as read' }));
    expect(entries()[0]).toHaveAttribute('data-status', 'READ');
    await waitFor(() =>
      expect(sentTo('/updateNotificationStatus')[0]?.body).toBe(`status=READ&notificationId=${n.id}`),
    );
  });

  it("'Remove notification' deletes it on the server and from the list", async () => {
    const [a, b] = [notification({ content: 'First' }), notification({ content: 'Second' })];
    serve({ notifications: [a, b], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('First');
    await userEvent.click(within(entries()[0]!).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Remove notification' }));
    await waitFor(() => expect(screen.queryByText('First')).toBeNull());
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(sentTo('/deleteNotification')[0]?.body).toBe(`notificationId=${a.id}`);
  });

  it('keeps an entry whose removal the server refused', async () => {
    server.use(
      http.post(`${API}/deleteNotification`, () =>
        HttpResponse.json({ error: 'Notification not found' }, { status: 404 }),
      ),
    );
    serve({ notifications: [notification({ content: 'Stays' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('Stays');
    await userEvent.click(within(list()).getByRole('button', { name: 'Notification options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Remove notification' }));
    await waitFor(() => expect(sentTo('/deleteNotification')).toHaveLength(1));
    expect(screen.getByText('Stays')).toBeInTheDocument();
  });

  it('the options menu works by keyboard, and Escape closes only that menu', async () => {
    serve({ notifications: [notification({ content: 'Keyboard' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('Keyboard');
    within(list()).getByRole('button', { name: 'Notification options' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('menuitem', { name: 'Mark as read' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Remove notification' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Mark as read' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(list()).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Notifications' })).toBeNull();
    expect(bell()).toHaveFocus();
  });

  it("shows 'No notifications' when there are none", async () => {
    logInAs();
    renderHeader();
    await openBell();
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
  });

  it('a failed first load is an empty list with no more pages', async () => {
    server.use(http.get(`${API}/notifications`, () => HttpResponse.json({ error: 'down' }, { status: 503 })));
    logInAs();
    const { client } = renderHeader();
    await openBell();
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));
    scrollListTo(900);
    expect(loadsUnderWay(client)).toBe(0);
    expect(sentTo('/notifications')).toHaveLength(1);
  });

  it('first load sends no paging; at 90% of the scroll height the next page asks pageNo and limit=10', async () => {
    const first = Array.from({ length: 10 }, (_, i) => notification({ content: `p0-${i}`, status: 'READ' }));
    const second = Array.from({ length: 10 }, (_, i) => notification({ content: `p1-${i}`, status: 'READ' }));
    const third = [notification({ content: 'p2-0', status: 'READ' })];
    serve(
      { notifications: first, more: true },
      { notifications: second, more: true },
      { notifications: third, more: false },
    );
    logInAs();
    const { client } = renderHeader();
    await openBell();
    await screen.findByText('p0-9');
    expect([...sentTo('/notifications')[0]!.query.keys()]).toEqual([]);
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));

    scrollListTo(500); // 86%: not yet
    expect(loadsUnderWay(client)).toBe(0);
    expect(sentTo('/notifications')).toHaveLength(1);

    scrollListTo(540); // 90%
    await screen.findByText('p1-9');
    expect(sentTo('/notifications')[1]!.query.toString()).toBe('pageNo=1&limit=10');

    scrollListTo(700);
    await screen.findByText('p2-0');
    expect(sentTo('/notifications')[2]!.query.toString()).toBe('pageNo=2&limit=10');
    expect(entries()).toHaveLength(21);

    // The server said there is no more: scrolling again asks nothing.
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));
    scrollListTo(1000);
    expect(loadsUnderWay(client)).toBe(0);
    expect(sentTo('/notifications')).toHaveLength(3);
  });

  it('never runs two page loads at once', async () => {
    const [laterPages, answerLaterPages] = gate();
    server.use(
      http.get(`${API}/notifications`, async ({ request }) => {
        const pageNo = Number(new URL(request.url).searchParams.get('pageNo') ?? 0);
        if (pageNo > 0) await laterPages;
        return HttpResponse.json({
          notifications: Array.from({ length: 10 }, (_, i) => notification({ content: `p${pageNo}-${i}` })),
          more: true,
        });
      }),
    );
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('p0-9');
    scrollListTo(600);
    scrollListTo(650);
    scrollListTo(700);
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(2));
    answerLaterPages();
    await screen.findByText('p1-9');
    expect(sentTo('/notifications').map((r) => r.query.get('pageNo'))).toEqual([null, '1']);
  });

  it('a live notification goes on top and into the badge', async () => {
    serve({ notifications: [notification({ content: 'Older', status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText('Older');
    publish('notifications', 'nora', notification({ content: 'Just now', status: 'NEW' }));
    await screen.findByText('Just now');
    expect(entries().map((li) => li.textContent)).toEqual([
      expect.stringContaining('Just now'),
      expect.stringContaining('Older'),
    ]);
    expect(badge()).toHaveTextContent('1');
  });

  it('reloads the list when the live subscription is (re)confirmed, so nothing published before it is missed', async () => {
    const listed = serveAsOfRequest([notification({ content: 'Before', status: 'READ' })]);
    logInAs();
    renderHeader();
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(1));
    // Published while the page was still subscribing: the broker never delivered it.
    listed.has = [notification({ content: 'Missed', status: 'NEW' }), ...listed.has];
    confirmSubscription('notifications', 'nora');
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    await openBell();
    expect(entries().map((li) => li.textContent)).toEqual([
      expect.stringContaining('Missed'),
      expect.stringContaining('Before'),
    ]);
  });

  it('a live notification arriving while the list reloads is not lost when the older answer lands', async () => {
    const listed = serveAsOfRequest([notification({ content: 'Before', status: 'READ' })]);
    logInAs();
    const { client } = renderHeader();
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(1));
    await openBell();
    await screen.findByText('Before');
    const [reloadAnswered, answerReload] = gate();
    listed.held = reloadAnswered;
    confirmSubscription('notifications', 'nora');
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(2));
    const fresh = notification({ content: 'During the reload', status: 'NEW' });
    listed.has = [fresh, ...listed.has];
    act(() => publish('notifications', 'nora', fresh));
    // The older answer lands; once no load is under way, the list is what it stays.
    answerReload();
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));
    await waitFor(() => expect(screen.getByText('During the reload')).toBeInTheDocument());
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
  });

  it('a reload answering from before the clear does not bring NEW back: the list is loaded again after the clear', async () => {
    const listed = serveAsOfRequest([notification({ content: 'Fresh', status: 'NEW' })]);
    server.use(
      http.post(`${API}/clearNewNotifications`, () => {
        listed.has = listed.has.map((n) => ({ ...n, status: 'UNREAD' as const }));
        return HttpResponse.json({ updated: 1 });
      }),
    );
    logInAs();
    const { client } = renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    const [reloadAnswered, answerReload] = gate();
    listed.held = reloadAnswered;
    // The live subscription is confirmed and reloads the list just before the user opens it.
    confirmSubscription('notifications', 'nora');
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(2));
    await openBell();
    // The server has cleared NEW before the reload answers, with the list from before.
    await waitFor(() => expect(sentTo('/clearNewNotifications')).toHaveLength(1));
    answerReload();
    await waitFor(() => expect(sentTo('/notifications')).toHaveLength(3));
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));
    expect(sentTo('/notifications')).toHaveLength(3);
    await waitFor(() => expect(badge()).toBeNull());
  });

  it('a live notification already on a loaded page is shown once, where and as it is there', async () => {
    const n = notification({ content: 'Twice', status: 'READ' });
    serve({ notifications: [notification({ content: 'Other', status: 'READ' }), n], more: false });
    logInAs();
    const { client } = renderHeader();
    await openBell();
    await screen.findByText('Twice');
    await waitFor(() => expect(loadsUnderWay(client)).toBe(0));
    const before = client.getQueryData(['getNotifications', 'nora']);
    // Published after the list was loaded (the outbox publishes after commit, at least once): the
    // loaded entry is as new as the live one or newer, so the live one is dropped. The channel
    // delivers at once, and a live entry taken in changes the list's cache at once.
    act(() => publish('notifications', 'nora', { ...n, status: 'NEW' }));
    expect(client.getQueryData(['getNotifications', 'nora'])).toBe(before);
    expect(loadsUnderWay(client)).toBe(0);
    expect(entries().map((li) => li.textContent)).toEqual([
      expect.stringContaining('Other'),
      expect.stringContaining('Twice'),
    ]);
    expect(screen.getAllByText('Twice')).toHaveLength(1);
    expect(badge()).toBeNull();
  });
});

describe('reachedLoadPoint', () => {
  it('is true from 90% of the scroll height', () => {
    expect(reachedLoadPoint({ scrollTop: 539, clientHeight: 360, scrollHeight: 1000 })).toBe(false);
    expect(reachedLoadPoint({ scrollTop: 540, clientHeight: 360, scrollHeight: 1000 })).toBe(true);
  });
});

describe('notification dropdown: the notification centre', () => {
  it("'See all' opens the notifications page and closes the dropdown", async () => {
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await userEvent.click(screen.getByRole('link', { name: 'See all' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/notifications');
    expect(screen.queryByRole('list', { name: 'Notifications' })).toBeNull();
  });

  it("'Mark all as read' makes every one READ, loaded or not, and tells the server once", async () => {
    // The server's list: two pages, the second not loaded; marking all changes every one.
    let held = [notification({ status: 'NEW' }), notification({ status: 'UNREAD' }), notification({ status: 'NEW' })];
    server.use(
      http.get(`${API}/notifications`, ({ request }) => {
        const pageNo = Number(new URL(request.url).searchParams.get('pageNo') ?? 0);
        return HttpResponse.json({ notifications: held.slice(pageNo * 2, pageNo * 2 + 2), more: pageNo === 0 });
      }),
      http.post(`${API}/notifications/markAllRead`, () => {
        held = held.map((n) => ({ ...n, status: 'READ' }));
        return HttpResponse.json({ updated: 3 });
      }),
    );
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    await openBell();
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(entries().map((li) => li.dataset.status)).toEqual(['READ', 'READ']);
    expect(badge()).toBeNull();
    await waitFor(() => expect(sentTo('/notifications/markAllRead')).toHaveLength(1));
    // The list loads again once the server has changed, and the server agrees.
    await waitFor(() => expect(sentTo('/notifications').length).toBeGreaterThan(1));
    await waitFor(() => expect(entries().map((li) => li.dataset.status)).toEqual(['READ', 'READ']));
  });

  it("offers 'Mark all as read' only while something may be unread", async () => {
    serve({ notifications: [notification({ status: 'READ' })], more: false });
    logInAs();
    renderHeader();
    await openBell();
    await screen.findByText(/Notification/);
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});
