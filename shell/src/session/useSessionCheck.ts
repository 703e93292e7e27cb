import { useEffect } from 'react';
import {
  apiCall,
  endsSession,
  isLoggedInCookie,
  PAGES,
  sessionStore,
  setLoginRedirect,
  useLocation,
  useNavigate,
} from '@marketplace/shared';

/**
 * SPEC.md section 4 "Session": on every route change while loggedIn = yes, ask the API whether
 * the session is still valid. A 500 changes nothing; any other failure sets loggedIn=no for
 * 30 days, remembers where the user was, and sends them to /user/login.
 */
export function useSessionCheck(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isLoggedInCookie()) return;
    let cancelled = false;
    apiCall('checkAuthentication').catch(async (error: unknown) => {
      if (cancelled || !endsSession(error)) return;
      setLoginRedirect(`${location.pathname}${location.search}`);
      // Before moving on: the login page's own check must already see loggedIn=no.
      await sessionStore.getState().expire();
      navigate(PAGES.login.href());
    });
    return () => {
      cancelled = true;
    };
  }, [location.pathname, location.search, navigate]);
}
