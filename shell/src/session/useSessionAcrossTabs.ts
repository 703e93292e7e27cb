import { useEffect } from 'react';
import { apiCall, endsSession, sessionStore } from '@marketplace/shared';

/** The channel the page's tabs tell each other on that this one's session changed (one origin's tabs). */
export const SESSION_CHANNEL = 'platform-session';

/** How long a page restored from the back-forward cache stays hidden at most while its session is checked. */
export const RESTORE_CHECK_MS = 3000;

/**
 * Keeps this tab's session in step with the others' and with the loggedIn cookie: a log in or out
 * in another tab is told on a BroadcastChannel (and seen on return to the tab, for tabs of another
 * subdomain sharing the cookie); the store follows the cookie (`followCookie`). A page the browser
 * restores from its back-forward cache shows nothing until its session is checked: its user may
 * have logged out since, and the page still holds their data.
 */
export function useSessionAcrossTabs(): void {
  useEffect(() => {
    const follow = () => void sessionStore.getState().followCookie();
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_CHANNEL) : null;
    channel?.addEventListener('message', follow);
    // Told on a change of this tab's own: the others follow the cookie it wrote.
    const unsubscribe = sessionStore.subscribe((state, previous) => {
      if (state.isLoggedIn !== previous.isLoggedIn) channel?.postMessage('changed');
    });
    const onVisible = () => {
      if (document.visibilityState === 'visible') follow();
    };
    const onHide = (event: PageTransitionEvent) => {
      // Kept for the back-forward cache: hidden now, so that it comes back hidden.
      if (event.persisted) document.documentElement.style.visibility = 'hidden';
    };
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      const show = () => {
        document.documentElement.style.visibility = '';
      };
      void checkRestored().finally(show);
      setTimeout(show, RESTORE_CHECK_MS);
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      channel?.close();
      unsubscribe();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
}

/** A restored page's session: the cookie first (a logout since), then the API (a session ended elsewhere). */
async function checkRestored(): Promise<void> {
  const store = sessionStore.getState();
  await store.followCookie();
  if (!sessionStore.getState().isLoggedIn) return;
  await apiCall('checkAuthentication').catch(async (error: unknown) => {
    if (endsSession(error)) await sessionStore.getState().expire();
  });
}
