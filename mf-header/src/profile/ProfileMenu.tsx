import styled from 'styled-components';
import { Avatar, Dropdown, Link, theme, useNavigate, useSession, type Role } from '@marketplace/shared';

const Menu = styled.ul`
  list-style: none;
  margin: 0;
  padding: 4px 0;
  li > a,
  li > button {
    display: block;
    width: 100%;
    padding: 8px 12px;
    text-align: left;
    background: none;
    border: none;
    font: inherit;
    color: ${theme.colors.text};
    text-decoration: none;
    cursor: pointer;
  }
`;

/** SPEC.md section 2 "Profile menu": entries with their role conditions. */
const ENTRIES: { to: string; label: string; role?: Role }[] = [
  { to: '/user/me', label: 'Profile' },
  { to: '/user/events', label: 'Events', role: 'EVENT_ORGANIZER' },
  { to: '/user/orders', label: 'Orders' },
  { to: '/user/mediaPackages', label: 'Media packages', role: 'MEDIA' },
  { to: '/user/discountCodes', label: 'Discount codes', role: 'MEDIA' },
  { to: '/settings/general', label: 'Settings' },
];

export function ProfileMenu() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const navigate = useNavigate();
  const roles = user?.roles ?? [];
  return (
    <Dropdown label="Profile menu" trigger={<Avatar src={user?.profilePicture} name={user?.username ?? 'Profile'} />}>
      {(close) => (
        <Menu>
          {ENTRIES.filter((e) => !e.role || roles.includes(e.role)).map((e) => (
            <li key={e.to}>
              <Link to={e.to} onClick={close}>
                {e.label}
              </Link>
            </li>
          ))}
          <li>
            <button
              type="button"
              onClick={() => {
                close();
                // SPEC.md section 4: 200, 401 or status 0 count as success; then home.
                void logout().then(
                  () => navigate('/'),
                  () => undefined,
                );
              }}
            >
              Logout
            </button>
          </li>
        </Menu>
      )}
    </Dropdown>
  );
}
