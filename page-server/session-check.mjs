// Whether a request's session is live, asked by nginx (app.conf.template) of a request that claims
// to be logged in (loggedIn=yes): the cookie any client can set, so on its own it must not buy a
// render past the page cache. Only a session the API knows is rendered for its visitor; any other
// claim gets the visitors' kept page. The session cookie is the credential: the answer says only
// whether the caller's own session is live.
import { cookieIn, PLATFORM_COOKIES } from '@marketplace/shared/node/choice';

/** Where nginx asks (an internal location of its own forwards here: never a public address of nginx's). */
export const SESSION_CHECK_PATH = '/platform/session';

/**
 * 204 when the API knows the session in `cookie`, 401 when it has none or the API refuses it, 502
 * when the API could not tell (down, late): nginx then leaves the page to the browser, neither
 * a render nor the visitors' copy.
 * The API's own check of a session: the contract's `getUserInfo` (GET /v2/userInfo), sent the
 * session cookie alone.
 * @param {{ cookie: string, apiOrigin: string, timeoutMs?: number }} request
 * @returns {Promise<204 | 401 | 502>}
 */
export async function sessionStatus({ cookie, apiOrigin, timeoutMs = 2000 }) {
  const session = cookieIn(cookie, PLATFORM_COOKIES.session);
  if (!session) return 401;
  try {
    const response = await fetch(`${apiOrigin}/v2/userInfo`, {
      headers: { cookie: `${PLATFORM_COOKIES.session}=${session}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.ok) return 204;
    return response.status === 401 || response.status === 403 ? 401 : 502;
  } catch {
    return 502;
  }
}
