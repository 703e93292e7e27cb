import { useState } from 'react';
import styled from 'styled-components';
import {
  Badge,
  Button,
  CartIcon,
  IconButton,
  Link,
  Modal,
  pageAt,
  PAGES,
  setLoginRedirect,
  theme,
  useIsMobile,
  useLocation,
  useNavigate,
  useSession,
} from '@marketplace/shared';
import { ChatWindows } from '../chat/ChatWindows.js';
import { MessagesMenu } from '../notifications/MessagesMenu.js';
import { NotificationsMenu } from '../notifications/NotificationsMenu.js';
import { ProfileMenu } from '../profile/ProfileMenu.js';
import { SearchBox } from '../search/SearchBox.js';

/** SPEC.md section 2: on some pages (the platform table says which) the header shrinks to the logo and name. */
const isCompact = (pathname: string) => pageAt(pathname)?.header === 'compact';

/** SPEC.md section 2, header table: the navigation links. */
const NAV_LINKS = [
  { to: PAGES.events.href(), label: 'Events' },
  { to: PAGES.community.href(), label: 'Posts' },
];

const Bar = styled.header`
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.background};
  padding: 10px 24px;
  /* The heights the shell's slot keeps while this code loads (theme.header). */
  min-height: ${theme.header.height};
  &[data-variant='compact'] {
    min-height: ${theme.header.compactHeight};
  }
  .row {
    display: flex;
    align-items: center;
    gap: 20px;
  }
  .row + .row {
    margin-top: 8px;
  }
  &[data-layout='mobile'] {
    padding: 8px 12px;
    min-height: ${theme.header.mobileHeight};
  }
  &[data-layout='mobile'] .row {
    gap: 8px;
  }
  /* The second row is the search box alone, full width. */
  &[data-layout='mobile'] .row + .row > * {
    max-width: none;
  }
  nav {
    display: flex;
    gap: 16px;
  }
  .spacer {
    flex: 1;
  }
`;

const Logo = styled(Link)`
  font-weight: 700;
  font-size: 18px;
  color: ${theme.colors.text};
  text-decoration: none;
  white-space: nowrap;
`;

const IconLink = styled(Link)`
  position: relative;
  display: inline-flex;
  font-size: 20px;
  text-decoration: none;
`;

const SideNav = styled.nav`
  display: flex;
  flex-direction: column;
  gap: 4px;
  a {
    padding: 10px 0;
    font-size: 17px;
    color: ${theme.colors.text};
    text-decoration: none;
  }
`;

function NavLinks({ onFollow }: { onFollow?: () => void }) {
  return NAV_LINKS.map((l) => (
    <Link key={l.to} to={l.to} onClick={onFollow}>
      {l.label}
    </Link>
  ));
}

/** The hamburger and its side menu holding the navigation, for the mobile layout. */
function SideMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton label="Open menu" size={40} aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        ☰
      </IconButton>
      {open && (
        <Modal title="Menu" placement="left" width={280} onClose={() => setOpen(false)}>
          <SideNav aria-label="Main">
            <NavLinks onFollow={() => setOpen(false)} />
          </SideNav>
        </Modal>
      )}
    </>
  );
}

export function HeaderBar() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const cartCount = useSession((s) => s.cart.length);
  // SPEC.md section 9: 768 px wide or less is the mobile layout.
  const isMobile = useIsMobile();

  const logo = <Logo to={PAGES.home.href()}>EventMedia</Logo>;
  if (isCompact(pathname)) {
    return (
      <Bar data-variant="compact">
        <div className="row">{logo}</div>
      </Bar>
    );
  }

  // SPEC.md section 2: Log in and Sign Up remember where the user was (1 day).
  const goTo = (path: string) => {
    setLoginRedirect(`${pathname}${search}`);
    navigate(path);
  };
  // Small on a phone, so Log in and Sign Up fit beside the logo at 390 px.
  const authSize = isMobile ? 'small' : 'medium';

  return (
    <Bar data-layout={isMobile ? 'mobile' : 'desktop'}>
      <div className="row">
        {isMobile && <SideMenu />}
        {logo}
        {!isMobile && (
          <nav aria-label="Main">
            <NavLinks />
          </nav>
        )}
        {!isMobile && <SearchBox />}
        <span className="spacer" />
        {isLoggedIn && <MessagesMenu />}
        {isLoggedIn && <NotificationsMenu />}
        <IconLink to={PAGES.cart.href()} aria-label={`Cart, ${cartCount} items`}>
          <CartIcon />
          <Badge count={cartCount} label="items in cart" />
        </IconLink>
        {isLoggedIn ? (
          <ProfileMenu />
        ) : (
          <>
            <Button variant="ghost" size={authSize} onClick={() => goTo(PAGES.login.href())}>
              Log in
            </Button>
            <Button variant="primary" size={authSize} onClick={() => goTo(PAGES.signup.href())}>
              Sign Up
            </Button>
          </>
        )}
      </div>
      {isMobile && (
        <div className="row">
          <SearchBox />
        </div>
      )}
      <ChatWindows />
    </Bar>
  );
}
