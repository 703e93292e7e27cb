import { useEffect, useRef, useState, type Ref } from 'react';
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
  SearchIcon,
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
 * At 768 px wide or less (SPEC.md section 9) the navigation moves into a side menu, and the header
 * stays one row down to a 360 px phone: the search opens from a button over the row, and Sign Up
 * moves into the side menu. The layout is decided in CSS, not by script, so the page rendered on
 * the server (which cannot know the screen's width) already has the right shape and nothing moves
 * when it hydrates.
 */
const Bar = styled.header`
  position: relative;
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
    padding: 8px;
    min-height: ${theme.header.mobileHeight};
    .row {
      gap: 4px;
    }
    /* The menus' toggles a little smaller, so a member's row fits 360 px. */
    .row [aria-haspopup] {
      width: 36px;
      height: 36px;
    }
    .mobile-only {
      display: contents;
    }
    .desktop-only {
      display: none;
    }
    /* Opened from its button: over the whole row, with a way to close it. */
    .search {
      display: none;
    }
    .search[data-open] {
      display: flex;
      position: absolute;
      inset: 0;
      z-index: 1;
      align-items: center;
      gap: 8px;
      padding: 0 12px;
      background: ${theme.colors.background};
    }
    .search[data-open] > :first-child {
      flex: 1;
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
  ${theme.mobile} {
    font-size: 16px;
  }
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
  a,
  button {
    padding: 10px 0;
    font-size: 17px;
    color: ${theme.colors.text};
    text-decoration: none;
    text-align: left;
  }
`;

function NavLinks({ onFollow }: { onFollow?: () => void }) {
  return NAV_LINKS.map((l) => (
    <Link key={l.to} to={l.to} onClick={onFollow}>
      {l.label}
    </Link>
  ));
}

/** The hamburger and its side menu holding the navigation (and a visitor's Sign Up), for the mobile layout. */
function SideMenu({ onSignUp }: { onSignUp?: () => void }) {
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
            {onSignUp && (
              <Button
                variant="link"
                onClick={() => {
                  setOpen(false);
                  onSignUp();
                }}
              >
                Sign Up
              </Button>
            )}
          </SideNav>
        </Modal>
      )}
    </>
  );
}

/**
 * The search box: in the row on a wide screen; on a phone over the row while open, closed by its
 * ×, Escape or following a result, with focus given back to the button that opened it.
 */
function SearchPlace({ open, onClose }: { open: boolean; onClose: () => void }) {
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) place.current?.querySelector('input')?.focus();
  }, [open]);
  return (
    <div
      className="search"
      ref={place}
      data-open={open || undefined}
      onKeyDown={(e) => {
        if (open && e.key === 'Escape') onClose();
      }}
    >
      <SearchBox />
      {open && (
        <span className="mobile-only">
          <IconButton label="Close search" size={36} onClick={onClose}>
            ×
          </IconButton>
        </span>
      )}
    </div>
  );
}

function SearchButton({ open, onOpen, ref }: { open: boolean; onOpen: () => void; ref: Ref<HTMLButtonElement> }) {
  return (
    <span className="mobile-only">
      <IconButton ref={ref} label="Search" size={36} aria-expanded={open} onClick={onOpen}>
        <SearchIcon />
      </IconButton>
    </span>
  );
}

export function HeaderBar() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const cartCount = useSession((s) => s.cart.length);
  const [searchOpen, setSearchOpen] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  // Following a result or the results page (a new query on /search too) closes the phone's search.
  useEffect(() => setSearchOpen(false), [pathname, search]);
  const closeSearch = () => {
    setSearchOpen(false);
    searchButton.current?.focus();
  };

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

  return (
    <Bar>
      <div className="row">
        <SideMenu onSignUp={isLoggedIn ? undefined : () => goTo(PAGES.signup.href())} />
        {logo}
        <nav aria-label="Main" className="desktop-only">
          <NavLinks />
        </nav>
        <SearchPlace open={searchOpen} onClose={closeSearch} />
        <span className="spacer" />
        <SearchButton ref={searchButton} open={searchOpen} onOpen={() => setSearchOpen(true)} />
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
            {/* Small on a phone, so Log in fits beside the logo at 360 px; Sign Up is in the side menu there. */}
            <Button variant="ghost" size="responsive" onClick={() => goTo(PAGES.login.href())}>
              Log in
            </Button>
            <span className="desktop-only">
              <Button variant="primary" size="responsive" onClick={() => goTo(PAGES.signup.href())}>
                Sign Up
              </Button>
            </span>
          </>
        )}
      </div>
      <ChatWindows />
    </Bar>
  );
}
