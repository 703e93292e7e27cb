import { Avatar, callQuery, formatMoney, Link, PAGES } from '@marketplace/shared';
import { AccountPage } from './AccountPage.js';
import { useAccountQuery } from './queries.js';

export { OrdersPage } from './OrdersPage.js';

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
