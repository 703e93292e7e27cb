import { Link, useLocation, useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Badge, CartIcon, setLoginRedirect, theme, useSession } from '@marketplace/shared';
import { MessagesMenu } from '../notifications/MessagesMenu.js';
import { NotificationsMenu } from '../notifications/NotificationsMenu.js';
import { ProfileMenu } from '../profile/ProfileMenu.js';

/** SPEC.md section 2: on these pages the header shrinks to the logo and name. */
const COMPACT_PATHS = ['/user/login', '/user/signup', '/legal/terms-of-service', '/legal/privacy-policy', '/legal/cookie-policy'];

const Bar = styled.header`
  display: flex;
  align-items: center;
  gap: 20px;
  padding: 10px 24px;
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.background};
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
`;

const IconLink = styled(Link)`
  position: relative;
  display: inline-flex;
  font-size: 20px;
  text-decoration: none;
`;

export function HeaderBar() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const cartCount = useSession((s) => s.cart.length);

  const logo = <Logo to="/">EventMedia</Logo>;
  if (COMPACT_PATHS.includes(pathname)) return <Bar data-variant="compact">{logo}</Bar>;

  // SPEC.md section 2: Log in and Sign Up remember where the user was (1 day).
  const goTo = (path: string) => {
    setLoginRedirect(`${pathname}${search}`);
    navigate(path);
  };

  return (
    <Bar>
      {logo}
      <nav aria-label="Main">
        <Link to="/events">Events</Link>
        <Link to="/community">Posts</Link>
      </nav>
      <span className="spacer" />
      {isLoggedIn && <MessagesMenu />}
      {isLoggedIn && <NotificationsMenu />}
      <IconLink to="/cart" aria-label={`Cart, ${cartCount} items`}>
        <CartIcon />
        <Badge count={cartCount} label="items in cart" />
      </IconLink>
      {isLoggedIn ? (
        <ProfileMenu />
      ) : (
        <>
          <button type="button" onClick={() => goTo('/user/login')}>
            Log in
          </button>
          <button type="button" onClick={() => goTo('/user/signup')}>
            Sign Up
          </button>
        </>
      )}
    </Bar>
  );
}
