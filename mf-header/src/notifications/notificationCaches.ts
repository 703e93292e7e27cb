import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ApiResponse, Notification, NotificationCounts } from '@marketplace/shared';
import type { FeedPage } from '../feed/useFeed.js';

/** One page of the notification centre, as the API answers it. */
export type CentrePage = ApiResponse<'listNotifications'>;

/**
 * The two lists of one user's notifications the header keeps: the dropdown's (useFeed's key, its
 * call and scope) and the notifications page's. A change made in one is made in both, so the
 * badge, the bold entries and the page agree (SPEC.md section 4).
 */
export const dropdownKey = (profileName: string) => ['getNotifications', profileName] as const;
export const centreKey = (profileName: string) => ['listNotifications', profileName] as const;

type Match = (n: Notification) => boolean;
type Change = (n: Notification) => Notification;

const isNew = (n: Notification) => n.status === 'NEW';
const isUnread = (n: Notification) => n.status !== 'READ';
const asRead: Change = (n) => ({ ...n, status: 'READ' });

/** The counts after `before` became `after` (null: removed); each page carries the same counts. */
function recount(counts: NotificationCounts, before: Notification, after: Notification | null): NotificationCounts {
  const delta = (is: (n: Notification) => boolean) => (after && is(after) ? 1 : 0) - (is(before) ? 1 : 0);
  return {
    total: counts.total - (after ? 0 : 1),
    new: counts.new + delta(isNew),
    unread: counts.unread + delta(isUnread),
  };
}

/**
 * Edits the page's list: `edit` answers each loaded notification's new value (null removes it),
 * and the counts follow; `counts` then overrides them where the change reaches notifications
 * not loaded (all marked read, every NEW cleared).
 */
function editCentre(
  client: QueryClient,
  profileName: string,
  edit: (n: Notification) => Notification | null,
  counts: (c: NotificationCounts) => NotificationCounts = (c) => c,
): void {
  client.setQueryData<InfiniteData<CentrePage>>(centreKey(profileName), (data) => {
    if (!data) return data;
    let changed = data.pages[0]?.counts;
    const pages = data.pages.map((p) => ({
      ...p,
      notifications: p.notifications.flatMap((n) => {
        const next = edit(n);
        if (next !== n && changed) changed = recount(changed, n, next);
        return next ? [next] : [];
      }),
    }));
    if (!changed) return { ...data, pages };
    const after = counts(changed);
    return { ...data, pages: pages.map((p) => ({ ...p, counts: after })) };
  });
}

/** Changes the notifications `match` selects in the page's list, and its counts. */
export function updateInCentre(client: QueryClient, profileName: string, match: Match, change: Change): void {
  editCentre(client, profileName, (n) => (match(n) ? change(n) : n));
}

/** Opening the dropdown: every NEW became UNREAD on the server, loaded here or not. */
export function clearNewInCentre(client: QueryClient, profileName: string): void {
  editCentre(
    client,
    profileName,
    (n) => (isNew(n) ? { ...n, status: 'UNREAD' } : n),
    (c) => ({ ...c, new: 0 }),
  );
}

/** Puts a live notification on top of the page's list, once. */
export function prependToCentre(client: QueryClient, profileName: string, n: Notification): void {
  client.setQueryData<InfiniteData<CentrePage>>(centreKey(profileName), (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first || data.pages.some((p) => p.notifications.some((known) => known.id === n.id))) return data;
    const counts = {
      total: first.counts.total + 1,
      new: first.counts.new + (isNew(n) ? 1 : 0),
      unread: first.counts.unread + (isUnread(n) ? 1 : 0),
    };
    return {
      ...data,
      pages: [{ ...first, notifications: [n, ...first.notifications] }, ...rest].map((p) => ({ ...p, counts })),
    };
  });
}

/** Changes the notifications `match` selects in the dropdown's list. */
export function updateInDropdown(client: QueryClient, profileName: string, match: Match, change: Change): void {
  client.setQueryData<InfiniteData<FeedPage<Notification>>>(dropdownKey(profileName), (data) =>
    data
      ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map((n) => (match(n) ? change(n) : n)) })) }
      : data,
  );
}

export function removeFromCentre(client: QueryClient, profileName: string, id: number): void {
  editCentre(client, profileName, (n) => (n.id === id ? null : n));
}

export function removeFromDropdown(client: QueryClient, profileName: string, id: number): void {
  client.setQueryData<InfiniteData<FeedPage<Notification>>>(dropdownKey(profileName), (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((n) => n.id !== id) })) } : data,
  );
}

/**
 * Loads both lists again once the server has made a change (a list shown refetches, one not shown
 * is refetched when next shown): a load that overlapped the change may have answered from before
 * it, and the page's counts are the server's.
 */
export function reloadBoth(client: QueryClient, profileName: string): void {
  void client.invalidateQueries({ queryKey: dropdownKey(profileName) });
  void client.invalidateQueries({ queryKey: centreKey(profileName) });
}

/**
 * "Mark all as read", from the dropdown or the page: NEW and UNREAD become READ in both lists at
 * once (the badge goes), then the server is told, then both lists load again.
 */
export async function markAllRead(
  client: QueryClient,
  profileName: string,
  send: () => Promise<unknown>,
): Promise<void> {
  updateInDropdown(client, profileName, isUnread, asRead);
  editCentre(
    client,
    profileName,
    (n) => (isUnread(n) ? asRead(n) : n),
    (c) => ({ ...c, new: 0, unread: 0 }),
  );
  try {
    await send();
  } finally {
    reloadBoth(client, profileName);
  }
}
