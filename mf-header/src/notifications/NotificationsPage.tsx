import styled from 'styled-components';
import {
  BellIcon,
  Button,
  Link,
  PageLayout,
  PAGES,
  QueryState,
  safeHref,
  setLoginRedirect,
  Skeleton,
  theme,
  Time,
  useLocation,
  useSession,
  VisuallyHidden,
  type Notification,
} from '@marketplace/shared';
import { ItemMenu } from './ItemMenu.js';
import { useNotificationCentre } from './useNotificationCentre.js';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.md};
  margin-bottom: ${theme.space.md};
  p {
    margin: 0;
    color: ${theme.colors.muted};
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0 0 ${theme.space.lg};
  padding: 0;
  > li {
    display: flex;
    align-items: flex-start;
    gap: ${theme.space.sm};
    padding: ${theme.space.md};
    border-bottom: 1px solid ${theme.colors.border};
  }
  /* SPEC.md section 4: NEW and UNREAD are not read yet, shown bold as in the dropdown. */
  > li[data-status='NEW'],
  > li[data-status='UNREAD'] {
    background: ${theme.colors.highlight};
  }
  > li[data-status='NEW'] .text,
  > li[data-status='UNREAD'] .text {
    font-weight: 600;
  }
  .body {
    flex: 1;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .text {
    color: ${theme.colors.text};
  }
  .body > time {
    display: block;
    margin-top: 2px;
  }
`;

const LOADING = [0, 1, 2, 3].map((i) => (
  <Skeleton key={i} width={i % 2 ? '65%' : '85%'} height={18} style={{ margin: '16px 0' }} />
));

/** The page at /notifications (`PAGES.notifications`): a visitor is asked to log in first. */
export function NotificationsPage() {
  const profileName = useSession((s) => s.user?.profileName);
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const { pathname, search } = useLocation();
  return (
    <PageLayout width="narrow">
      <h1>Notifications</h1>
      {isLoggedIn && profileName ? (
        <Centre profileName={profileName} />
      ) : (
        <p>
          Please {/* SPEC.md section 2: logging in returns here (the loginRedirect cookie, 1 day). */}
          <Link to={PAGES.login.href()} onClick={() => setLoginRedirect(`${pathname}${search}`)}>
            log in
          </Link>{' '}
          to see your notifications.
        </p>
      )}
    </PageLayout>
  );
}

function Centre({ profileName }: { profileName: string }) {
  const centre = useNotificationCentre(profileName);
  const { counts, items } = centre;
  const anyUnread = (counts?.unread ?? 0) > 0 || items.some((n) => n.status !== 'READ');
  return (
    <>
      {counts && counts.total > 0 && (
        <Toolbar>
          <p aria-live="polite">
            {counts.unread} unread of {counts.total}
          </p>
          <Button variant="secondary" size="small" disabled={!anyUnread} onClick={() => void centre.markAllRead()}>
            Mark all as read
          </Button>
        </Toolbar>
      )}
      <QueryState
        isLoading={centre.isLoading}
        error={centre.error}
        errorText="Your notifications could not be loaded. Please try again."
        skeleton={LOADING}
        empty={items.length === 0}
        emptyText="No notifications"
        emptyIcon={<BellIcon />}
      >
        <List aria-label="All notifications">
          {items.map((n) => (
            <Entry key={n.id} notification={n} centre={centre} />
          ))}
        </List>
        {centre.hasMore && (
          <Button disabled={centre.isLoadingMore} onClick={centre.loadMore}>
            {centre.isLoadingMore ? 'Loading…' : 'Load more'}
          </Button>
        )}
      </QueryState>
    </>
  );
}

function Entry({
  notification: n,
  centre,
}: {
  notification: Notification;
  centre: ReturnType<typeof useNotificationCentre>;
}) {
  const unread = n.status !== 'READ';
  const markRead = () => unread && centre.markRead(n.id);
  // Only site-relative or http(s) links are followed (never javascript: and the like).
  const href = safeHref(n.link);
  const text = <span className="text">{n.content}</span>;
  return (
    <li data-status={n.status}>
      <div className="body">
        {unread && <VisuallyHidden>Unread: </VisuallyHidden>}
        {href?.startsWith('/') ? (
          <Link to={href} onClick={markRead}>
            {text}
          </Link>
        ) : href ? (
          <a href={href} rel="noopener noreferrer" onClick={markRead}>
            {text}
          </a>
        ) : (
          text
        )}
        <Time iso={n.timestamp} />
      </div>
      <ItemMenu
        label="Notification options"
        actions={[
          { label: 'Mark as read', run: () => centre.markRead(n.id) },
          { label: 'Remove notification', run: () => void centre.remove(n.id).catch(() => undefined) },
        ]}
      />
    </li>
  );
}
