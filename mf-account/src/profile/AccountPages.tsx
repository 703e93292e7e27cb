import type { ReactNode } from 'react';
import {
  Avatar,
  callQuery,
  formatMoney,
  Link,
  PageLayout,
  PAGES,
  QueryState,
  Skeleton,
  useSession,
} from '@marketplace/shared';
import { useAccountQuery } from './queries.js';

/** The API's reason (e.g. the role a page needs) is what the user needs to read. */
const reason = (error: unknown) => (error instanceof Error ? error.message : 'This could not be loaded.');

/** Four rows of a list, the shape of every account page's content while it loads. */
const LIST_SKELETON = [0, 1, 2, 3].map((i) => (
  <Skeleton key={i} width={i % 2 ? '65%' : '85%'} height={18} style={{ margin: '16px 0' }} />
));

interface AccountPageProps {
  title: string;
  state: { isLoading: boolean; error: unknown };
  /** The loaded list is empty: what the empty state says, and what to do about it. */
  empty?: { when: boolean; title: string; hint?: ReactNode };
  children: ReactNode;
}

/** A page that needs a session: visitors are pointed to log in; failures show the API's reason (e.g. the role a page needs). */
function AccountPage({ title, state, empty, children }: AccountPageProps) {
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  return (
    <PageLayout width="narrow">
      <h1>{title}</h1>
      {isLoggedIn ? (
        <QueryState
          isLoading={state.isLoading}
          error={state.error}
          errorText={reason}
          skeleton={LIST_SKELETON}
          empty={empty?.when}
          emptyText={empty?.title}
          emptyHint={empty?.hint}
        >
          {children}
        </QueryState>
      ) : (
        <p>
          Please <Link to={PAGES.login.href()}>log in</Link> to see this page.
        </p>
      )}
    </PageLayout>
  );
}

export function ProfilePage() {
  const q = useAccountQuery(callQuery('getOwnProfile'));
  return (
    <AccountPage title="Profile" state={q}>
      {q.data && (
        <div style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
          <Avatar src={q.data.profilePicture} name={q.data.username} size={72} />
          <dl>
            <dt>Name</dt>
            <dd>{q.data.username}</dd>
            <dt>Profile name</dt>
            <dd>
              <Link to={PAGES.creator.href({ profileName: q.data.profileName })}>{q.data.profileName}</Link>
            </dd>
            <dt>Email</dt>
            <dd>{q.data.email}</dd>
            <dt>Roles</dt>
            <dd>{q.data.roles.join(', ') || 'none yet'}</dd>
            <dt>About</dt>
            <dd>{q.data.bio || '—'}</dd>
          </dl>
        </div>
      )}
    </AccountPage>
  );
}

export function OrdersPage() {
  const q = useAccountQuery(callQuery('getEventOrders'));
  const orders = q.data?.eventOrders ?? [];
  return (
    <AccountPage
      title="Orders"
      state={q}
      empty={{
        when: orders.length === 0,
        title: 'No orders yet.',
        hint: 'Orders you place or receive for event photos and videos appear here.',
      }}
    >
      <ul aria-label="Event orders">
        {orders.map((o) => (
          <li key={o.orderId}>
            <Link to={PAGES.eventOrder.href({ orderId: o.orderId })}>
              {o.eventName} ({o.orderId})
            </Link>{' '}
            · {o.view === 'client' ? `with ${o.counterpart}` : `for ${o.counterpart}`} ·{' '}
            {o.deleted ? 'deleted' : (o.status ?? o.publicStatus)}
          </li>
        ))}
      </ul>
    </AccountPage>
  );
}

export function MyEventsPage() {
  const q = useAccountQuery(callQuery('getMyEvents'));
  return (
    <AccountPage
      title="Your events"
      state={q}
      empty={{ when: q.data?.events.length === 0, title: 'No events yet.', hint: 'Events you organize appear here.' }}
    >
      <ul>
        {q.data?.events.map((e) => (
          <li key={e.eventIdentifier}>
            <Link to={PAGES.event.href({ eventIdentifier: e.eventIdentifier })}>{e.name}</Link> ·{' '}
            {new Date(e.startsAt).toLocaleDateString()}
          </li>
        ))}
      </ul>
    </AccountPage>
  );
}

export function MediaPackagesPage() {
  const q = useAccountQuery(callQuery('getMediaPackages'));
  return (
    <AccountPage
      title="Media packages"
      state={q}
      empty={{
        when: q.data?.mediaPackages.length === 0,
        title: 'No media packages yet.',
        hint: 'The packages you offer to clients appear here.',
      }}
    >
      <ul>
        {q.data?.mediaPackages.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> · {formatMoney(p.priceCents)} · {p.photoCount} photos
            {p.videoMinutes ? `, ${p.videoMinutes} min video` : ''} — {p.description}
          </li>
        ))}
      </ul>
    </AccountPage>
  );
}

export function DiscountCodesPage() {
  const q = useAccountQuery(callQuery('getDiscountCodes'));
  return (
    <AccountPage
      title="Discount codes"
      state={q}
      empty={{
        when: q.data?.discountCodes.length === 0,
        title: 'No discount codes yet.',
        hint: 'Codes you create for your clients appear here.',
      }}
    >
      <ul>
        {q.data?.discountCodes.map((d) => (
          <li key={d.id}>
            <code>{d.code}</code> · {d.percentOff}% off · used {d.timesUsed} times
            {d.expiresAt ? ` · until ${new Date(d.expiresAt).toLocaleDateString()}` : ''}
          </li>
        ))}
      </ul>
    </AccountPage>
  );
}
