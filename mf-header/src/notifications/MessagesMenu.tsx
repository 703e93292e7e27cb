import { Avatar, Badge, ChatIcon, Dropdown, useSession } from '@marketplace/shared';
import { Icon, List } from './NotificationsMenu.js';
import { useMessageNotifications } from './useNotifications.js';

export function MessagesMenu() {
  const profileName = useSession((s) => s.user?.profileName);
  if (!profileName) return null;
  return <Messages profileName={profileName} />;
}

function Messages({ profileName }: { profileName: string }) {
  const { items, newCount, clearNew } = useMessageNotifications(profileName);
  return (
    <Dropdown
      label={`Messages, ${newCount} new`}
      onOpen={() => void clearNew()}
      trigger={
        <Icon>
          <ChatIcon />
          <Badge count={newCount} label="new messages" />
        </Icon>
      }
    >
      {() => (
        <List aria-label="Messages">
          {items.length === 0 && <li className="empty">No messages to show</li>}
          {items.map((m) => (
            <li key={m.profileName} data-status={m.status} style={{ display: 'flex', gap: 8 }}>
              <Avatar src={m.profilePicture} name={m.name} size={28} />
              <span>
                <strong>{m.name}</strong>: {m.content}
              </span>
            </li>
          ))}
        </List>
      )}
    </Dropdown>
  );
}
