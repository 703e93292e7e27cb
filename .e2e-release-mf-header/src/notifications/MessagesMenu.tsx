import { Avatar, ChatIcon, PlainButton, Time, useSession } from '@marketplace/shared';
import { FeedDropdown, FeedList } from './FeedList.js';
import { useMessageNotifications } from './useNotifications.js';

export function MessagesMenu() {
  const profileName = useSession((s) => s.user?.profileName);
  if (!profileName) return null;
  return <Messages profileName={profileName} />;
}

/** SPEC.md section 2 "Message dropdown" and section 4 "Message notifications". */
function Messages({ profileName }: { profileName: string }) {
  const feed = useMessageNotifications(profileName);
  return (
    <FeedDropdown name="Messages" icon={<ChatIcon />} newCount={feed.newCount} onOpen={feed.clearNew}>
      {(close) => (
        <FeedList
          label="Messages"
          empty="No messages to show"
          emptyIcon={<ChatIcon />}
          isLoading={feed.isLoading}
          count={feed.items.length}
          hasMore={feed.hasMore}
          loadMore={feed.loadMore}
        >
          {feed.items.map((m) => (
            <li key={m.profileName} data-status={m.status}>
              <div className="body">
                <PlainButton
                  className="entry"
                  onClick={() => {
                    feed.openConversation(m);
                    close();
                  }}
                >
                  <Avatar src={m.profilePicture} name={m.name} size={28} />
                  <span>
                    <strong>{m.name}</strong>
                    <br />
                    <span className="text">{m.content}</span>
                  </span>
                </PlainButton>
                <Time iso={m.timestamp} />
              </div>
            </li>
          ))}
        </FeedList>
      )}
    </FeedDropdown>
  );
}
