import { useEffect, useRef } from 'react';
import {
  apiCall,
  endsSession,
  isLoggedInCookie,
  PAGES,
  sessionStore,
  setLoginRedirect,
  useLocation,
  useNavigate,
  useSession,
} from '@marketplace/shared';

/** Pages a return path never points at: after logging in, the user goes back to what they were doing. */
const NOT_RETURNED_TO: readonly string[] = [PAGES.login.href(), PAGES.signup.href()];

/**
 * SPEC.md section 4 "Session": on every route change while loggedIn = yes, ask the API whether
 * the session is still valid. A 500 changes nothing; any other failure ends the session.
 * However the page notices a dead session first (this check, the store's userInfo on a page load,
 * the live channel's login), the ending is one: loggedIn=no for 30 days (the store's `expire`),
 * the return path stored, and the user at /user/login. A logout in another tab sends this one home.
 */
export function useSessionCheck(): void {
  const location = useLocation();
  const navigate = useNavigate();
  // Where the page is when an ending is noticed (read then, not followed).
  const here = useRef(location);
  here.current = location;
  useEffect(() => {
    if (!isLoggedInCookie()) return;
    let cancelled = false;
    apiCall('checkAuthentication').catch(async (error: unknown) => {
      if (!cancelled && endsSession(error)) await sessionStore.getState().expire();
    });
    return () => {
      cancelled = true;
    };
    // A route is a path: a query that changes on the same page (a photo opened in the viewer, a
    // search typed again) is not a route change.
  }, [location.pathname]);

  const ended = useSession((s) => s.ended);
  useEffect(() => {
    if (!ended) return;
    // Handled once, here: a remount of the shell does not move the page again.
    sessionStore.setState({ ended: null });
    if (ended.reason === 'elsewhere') return void navigate(PAGES.home.href());
    const { pathname, search } = here.current;
    if (NOT_RETURNED_TO.includes(pathname)) return;
    setLoginRedirect(`${pathname}${search}`);
    navigate(PAGES.login.href());
  }, [ended, navigate]);
}
