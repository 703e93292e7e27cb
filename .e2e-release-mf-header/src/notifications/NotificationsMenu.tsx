import { BellIcon, PlainButton, Time, useSession } from '@marketplace/shared';
import { useFollow } from '../useFollow.js';
import { FeedDropdown, FeedList } from './FeedList.js';
import { ItemMenu } from './ItemMenu.js';
import { useNotifications } from './useNotifications.js';

export function NotificationsMenu() {
  const profileName = useSession((s) => s.user?.profileName);
  if (!profileName) return null;
  return <Notifications profileName={profileName} />;
}

/** SPEC.md section 2 "Notification dropdown" and section 4 "Notifications". */
function Notifications({ profileName }: { profileName: string }) {
  const follow = useFollow();
  const feed = useNotifications(profileName);
  return (
    <FeedDropdown name="Notifications" icon={<BellIcon />} newCount={feed.newCount} onOpen={feed.clearNew}>
      {(close) => (
        <FeedList
          label="Notifications"
          empty="No notifications"
          emptyIcon={<BellIcon />}
          isLoading={feed.isLoading}
          count={feed.items.length}
          hasMore={feed.hasMore}
          loadMore={feed.loadMore}
        >
          {feed.items.map((n) => (
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
      )}
    </FeedDropdown>
  );
}
