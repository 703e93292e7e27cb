import { Avatar, PAGE_DATA, pageQuery, Link, PAGES } from '@marketplace/shared';
import { AccountPage } from './AccountPage.js';
import { useAccountQuery } from './queries.js';

export { OrdersPage } from './OrdersPage.js';

export function ProfilePage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.ownProfile()));
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
