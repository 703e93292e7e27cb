import { useEffect } from 'react';
import { apiCall, ApiError, isLoggedInCookie, sessionStore, setLoggedInCookie, setLoginRedirect, statusOf, useLocation, useNavigate } from '@marketplace/shared';

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
    apiCall('checkAuthentication').catch((error: unknown) => {
      // A check cancelled by leaving the page proves nothing about the session.
      if (cancelled || statusOf(error) === 500 || (error instanceof ApiError && error.aborted)) return;
      setLoggedInCookie('no', 'authFailure');
      setLoginRedirect(`${location.pathname}${location.search}`);
      sessionStore.getState().expire();
      navigate('/user/login');
    });
    return () => {
      cancelled = true;
    };
  }, [location.pathname, location.search, navigate]);
}
