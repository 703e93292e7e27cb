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

/*
 * SPEC.md section 9: at 768 px wide or less the navigation moves into a side menu and the search
 * box onto a second row. The layout is decided in CSS, not by script, so the page rendered on the
 * server (which cannot know the screen's width) already has the right shape and nothing moves
 * when it hydrates.
 */
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
  nav {
    display: flex;
    gap: 16px;
  }
  .spacer {
    flex: 1;
  }
  .mobile-only {
    display: none;
  }
  /* The search box's place: beside the navigation on a wide screen. */
  .search {
    display: contents;
  }
  ${theme.mobile} {
    padding: 8px 12px;
    min-height: ${theme.header.mobileHeight};
    .row {
      flex-wrap: wrap;
      gap: 8px;
    }
    .mobile-only {
      display: contents;
    }
    .desktop-only {
      display: none;
    }
    /* The search box alone on the second row, full width. */
    .search {
      display: block;
      order: 1;
      flex-basis: 100%;
    }
    .search > * {
      max-width: none;
    }
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
      {/* Only the button is for phones: the menu it opens stays open on any width. */}
      <span className="mobile-only">
        <IconButton
          label="Open menu"
          size={40}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(true)}
        >
          ☰
        </IconButton>
      </span>
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

  const logo = <Logo to={PAGES.home.href()}>EventMedia Next</Logo>;
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

  return (
    <Bar>
      <div className="row">
        <SideMenu />
        {logo}
        <nav aria-label="Main" className="desktop-only">
          <NavLinks />
        </nav>
        <div className="search">
          <SearchBox />
        </div>
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
            {/* Small on a phone, so Log in and Sign Up fit beside the logo at 390 px. */}
            <Button variant="ghost" size="responsive" onClick={() => goTo(PAGES.login.href())}>
              Log in
            </Button>
            <Button variant="primary" size="responsive" onClick={() => goTo(PAGES.signup.href())}>
              Sign Up
            </Button>
          </>
        )}
      </div>
      <ChatWindows />
    </Bar>
  );
}
