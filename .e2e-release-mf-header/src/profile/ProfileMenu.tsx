import {
  Avatar,
  Dropdown,
  Link,
  MenuItem,
  MenuList,
  PAGES,
  useNavigate,
  useSession,
  type Role,
} from '@marketplace/shared';

/** SPEC.md section 2 "Profile menu": entries with their role conditions, and Purchases and Sales. */
const ENTRIES: { to: string; label: string; role?: Role }[] = [
  { to: PAGES.profile.href(), label: 'Profile' },
  { to: PAGES.myEvents.href(), label: 'Events', role: 'EVENT_ORGANIZER' },
  { to: PAGES.orders.href(), label: 'Orders' },
  // Buying content: what one bought (everyone), what one sold (a seller of media).
  { to: PAGES.purchases.href(), label: 'Purchases' },
  { to: PAGES.mediaPackages.href(), label: 'Media packages', role: 'MEDIA' },
  { to: PAGES.discountCodes.href(), label: 'Discount codes', role: 'MEDIA' },
  { to: PAGES.sales.href(), label: 'Sales', role: 'MEDIA' },
  { to: PAGES.settings.href(), label: 'Settings' },
];

export function ProfileMenu() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const navigate = useNavigate();
  const roles = user?.roles ?? [];
  return (
    <Dropdown label="Profile menu" trigger={<Avatar src={user?.profilePicture} name={user?.username ?? 'Profile'} />}>
      {(close) => (
        <MenuList>
          {ENTRIES.filter((e) => !e.role || roles.includes(e.role)).map((e) => (
            <li key={e.to}>
              <Link to={e.to} onClick={close}>
                {e.label}
              </Link>
            </li>
          ))}
          <li>
            <MenuItem
              onClick={() => {
                close();
                // SPEC.md section 4: 200, 401 or status 0 count as success; then home.
                void logout().then(
                  () => navigate(PAGES.home.href()),
                  () => undefined,
                );
              }}
            >
              Logout
            </MenuItem>
          </li>
        </MenuList>
      )}
    </Dropdown>
  );
}
