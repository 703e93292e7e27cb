import { useDeferredValue } from 'react';
import styled from 'styled-components';
import { BellIcon, Link, PAGES, PlainButton, theme, Time, usePreparedStyles, useSession } from '@marketplace/shared';
import { useFollow } from '../useFollow.js';
import { FeedDropdown, FeedList } from './FeedList.js';
import { ItemMenu } from './ItemMenu.js';
import { useNotifications } from './useNotifications.js';

const Footer = styled.div`
  display: flex;
  justify-content: space-between;
  gap: ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  font-size: ${theme.text.small};
  button {
    color: ${theme.colors.primary};
  }
  button:disabled {
    color: ${theme.colors.muted};
  }
`;

/** The footer's styles, made while the page is idle rather than in the press that opens the list. */
const FOOTER_STYLES = (
  <Footer>
    <PlainButton />
  </Footer>
);

export function NotificationsMenu() {
  const profileName = useSession((s) => s.user?.profileName);
  if (!profileName) return null;
  return <Notifications profileName={profileName} />;
}

/** SPEC.md section 2 "Notification dropdown" and section 4 "Notifications". */
function Notifications({ profileName }: { profileName: string }) {
  const feed = useNotifications(profileName);
  usePreparedStyles(FOOTER_STYLES);
  return (
    <FeedDropdown name="Notifications" icon={<BellIcon />} newCount={feed.newCount} onOpen={feed.clearNew}>
      {(close) => <NotificationsList feed={feed} close={close} />}
    </FeedDropdown>
  );
}

/**
 * The open dropdown's list. The press that opens it paints the dropdown at once, its rows'
 * shapes in place; the entries (each with its options menu and its time, whose first showing
 * loads the time format) follow in a render of their own that gives way to the browser, so that
 * on a slow phone the press is answered in a frame rather than after the whole list is built.
 */
function NotificationsList({ feed, close }: { feed: ReturnType<typeof useNotifications>; close: () => void }) {
  const follow = useFollow();
  const shown = useDeferredValue(true, false);
  // Something may still be unread: one loaded, or any on a page not loaded yet.
  const anyUnread = !feed.complete || feed.items.some((n) => n.status !== 'READ');
  return (
    <>
      <FeedList
        label="Notifications"
        empty="No notifications"
        emptyIcon={<BellIcon />}
        isLoading={feed.isLoading || !shown}
        count={feed.items.length}
        hasMore={feed.hasMore}
        loadMore={feed.loadMore}
      >
        {shown &&
          feed.items.map((n) => (
            <li key={n.id} data-status={n.status}>
              <div className="body">
                <PlainButton
                  className="entry"
                  onClick={() => {
                    feed.markRead(n.id);
                    // Only site-relative or http(s) links are followed (never javascript: and the like).
                    if (follow(n.link)) close();
                  }}
                >
                  <span className="text">{n.content}</span>
                </PlainButton>
                <Time iso={n.timestamp} />
              </div>
              <ItemMenu
                label="Notification options"
                actions={[
                  { label: 'Mark as read', run: () => feed.markRead(n.id) },
                  { label: 'Remove notification', run: () => void feed.remove(n.id).catch(() => undefined) },
                ]}
              />
            </li>
          ))}
      </FeedList>
      <Footer>
        <PlainButton disabled={!anyUnread} onClick={() => void feed.markAllRead().catch(() => undefined)}>
          Mark all as read
        </PlainButton>
        <Link to={PAGES.notifications.href()} onClick={close}>
          See all
        </Link>
      </Footer>
    </>
  );
}
