import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Badge, BellIcon, Dropdown, safeHref, theme, useSession } from '@marketplace/shared';
import { useNotifications } from './useNotifications.js';

export const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 4px 0;
  max-height: 360px;
  overflow: auto;
  li {
    padding: 8px 12px;
    border-bottom: 1px solid ${theme.colors.surface};
  }
  li[data-status='NEW'],
  li[data-status='UNREAD'] {
    font-weight: 600;
  }
  .empty {
    color: ${theme.colors.muted};
  }
`;

export const Icon = styled.span`
  position: relative;
  display: inline-flex;
  font-size: 20px;
`;

export function NotificationsMenu() {
  const profileName = useSession((s) => s.user?.profileName);
  if (!profileName) return null;
  return <Notifications profileName={profileName} />;
}

function Notifications({ profileName }: { profileName: string }) {
  const navigate = useNavigate();
  const { items, newCount, clearNew, markRead } = useNotifications(profileName);
  return (
    <Dropdown
      label={`Notifications, ${newCount} new`}
      onOpen={() => void clearNew()}
      trigger={
        <Icon>
          <BellIcon />
          <Badge count={newCount} label="new notifications" />
        </Icon>
      }
    >
      {(close) => (
        <List aria-label="Notifications">
          {items.length === 0 && <li className="empty">No notifications</li>}
          {items.map((n) => (
            <li key={n.id} data-status={n.status}>
              <button
                type="button"
                onClick={() => {
                  void markRead(n.id);
                  // Only site-relative or http(s) links are followed (never javascript:).
                  const href = safeHref(n.link);
                  if (href?.startsWith('/')) navigate(href);
                  else if (href) window.location.assign(href);
                  close();
                }}
              >
                {n.content}
              </button>
            </li>
          ))}
        </List>
      )}
    </Dropdown>
  );
}
