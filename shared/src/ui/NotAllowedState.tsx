import { useState } from 'react';
import styled from 'styled-components';
import { setLoginRedirect } from '../cookies.js';
import { PAGES } from '../platform/pages.js';
import { useLocation, useNavigate } from '../router.js';
import { useSession } from '../session/store.js';
import { Button } from './Button.js';
import { theme } from './theme.js';

const Box = styled.div`
  padding: ${theme.space.xl} 0;
  text-align: center;
  p {
    margin: 0 0 ${theme.space.lg};
  }
`;

/**
 * What a page shows when its data is refused to this visitor (not logged in, or logged in as
 * someone it is not for): the reason, and a way in. A visitor logs in; a member logs out and logs
 * in as someone else. Either way the page is where they come back to.
 */
export function NotAllowedState({ text }: { text: string }) {
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const logout = useSession((s) => s.logout);
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const logIn = async () => {
    setBusy(true);
    try {
      // The present session is ended first: a second log in would leave it open on the server.
      if (isLoggedIn) await logout();
    } catch {
      // A logout the API could not take still lets the user log in as someone else.
    }
    setLoginRedirect(`${pathname}${search}`);
    navigate(PAGES.login.href());
  };
  return (
    <Box data-not-allowed="">
      <p role="alert">{text}</p>
      <Button variant="primary" disabled={busy} onClick={() => void logIn()}>
        {isLoggedIn ? 'Log in as someone else' : 'Log in'}
      </Button>
    </Box>
  );
}
