import { createContext, useContext } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { apiCall, endsSession, statusOf } from '../api/client.js';
import type { CartItem, CartItemType, UserInfo } from '../contract/entities.js';
import { isLoggedInCookie, setLoggedInCookie } from '../cookies.js';
import { serverStateInPage, type ServerSession } from '../app/serverState.js';
import { diagnostics } from '../diagnostics.js';
import { live } from '../live/index.js';

export type AddToCartResult = 'added' | 'alreadyInCart';

/**
 * How this page's session ended without its own logout: `expired` when a check here found it dead
 * (SPEC.md section 4 "Session": the page goes to /user/login), `elsewhere` when another tab logged
 * out (the page goes home, as that tab did). `at` tells two endings apart.
 */
export interface SessionEnding {
  reason: 'expired' | 'elsewhere';
  at: number;
}

/**
 * Who the cookie's session belongs to. SPEC.md section 3 "User context": logged in means a
 * non-empty username, so an empty one ends the session like a failure that ends it (see
 * `endsSession`); after a 500 the user is unknown for now and stays logged in, as the session
 * check keeps them.
 */
async function readUser(): Promise<{ user: UserInfo | null; ended: boolean }> {
  try {
    const user = await apiCall('getUserInfo');
    return user.username ? { user, ended: false } : { user: null, ended: true };
  } catch (error) {
    return { user: null, ended: endsSession(error) };
  }
}

export interface SessionState {
  /** Who is logged in; null for a visitor or before userInfo has loaded. */
  user: UserInfo | null;
  /** SPEC.md section 5: true only while the loggedIn cookie equals 'yes'. */
  isLoggedIn: boolean;
  cart: CartItem[];
  /** The first load() has ended: `cart` and `user` are the server's, not the empty start. */
  loaded: boolean;
  /** Set when the session ended without this page's logout, until the shell has moved the page on (it sets it null). */
  ended: SessionEnding | null;
  /** Reads userInfo (when the cookie says logged in) and the cart. */
  load(): Promise<void>;
  /** After log in or sign up: the user, the cookie's state and the (merged) cart. */
  signedIn(user: UserInfo): Promise<void>;
  /** Reads the cart again after the server changed it (checkout takes out what cannot be bought); kept as it is when that fails. */
  reloadCart(): Promise<void>;
  setUser(user: UserInfo): void;
  /** Refuses an item already in the cart locally (SPEC.md section 4 "Cart"). */
  addToCart(identifier: string, itemType?: CartItemType): Promise<AddToCartResult>;
  /** Removal errors are swallowed (SPEC.md section 8). */
  removeFromCart(identifier: string): Promise<void>;
  /** SPEC.md section 4 "Logout": 200, 401 and status 0 all count as success. Rethrows anything else. */
  logout(): Promise<void>;
  /**
   * The session has ended without a logout (SPEC.md section 4 "Session": the session check,
   * userInfo or the live channel's login found it dead): loggedIn no for 30 days, the live channel
   * closed, the user forgotten, and `ended` says so, whichever check noticed first.
   */
  expire(): Promise<void>;
  /**
   * Follows the loggedIn cookie when another tab (or a page restored from the back-forward cache)
   * may have changed it: logged out there, this page forgets the user as a logout does; logged
   * in there, it loads the user.
   */
  followCookie(): Promise<void>;
}

export type SessionStore = StoreApi<SessionState>;

/**
 * A session store. `isLoggedIn`: what the loggedIn cookie says, when it is not the page's own
 * cookie to read (a page's server renders each request with a store of its own).
 */
export function createSessionStore(start: { isLoggedIn?: boolean; session?: ServerSession | null } = {}): SessionStore {
  diagnostics.sessionStores++;
  // The session the page's server rendered with (in the page, or given to a server's own store):
  // the state to start from, since a render reads a store's first state (React's server snapshot,
  // in the server's render and in the browser's hydration of it). load() checks it as always,
  // from the cookie.
  const rendered = start.isLoggedIn === undefined || start.session === undefined ? serverStateInPage() : null;
  const isLoggedIn = start.isLoggedIn ?? rendered?.loggedIn ?? isLoggedInCookie();
  const session = isLoggedIn ? (start.session === undefined ? rendered?.session : start.session) : null;
  return createStore<SessionState>()((set, get) => ({
    user: session?.user ?? null,
    isLoggedIn,
    cart: session?.cart ?? [],
    loaded: Boolean(session),
    ended: null,

    async load() {
      const isLoggedIn = isLoggedInCookie();
      // A cookie saying yes where the store says no (a visitors' page, kept by nginx, reaching a
      // browser whose session is dead; another tab's log in) is a claim until the API answers: the
      // store says logged in only then, so a claim found dead never looks like a session that
      // ended, whose end would take the page's visitor data with it.
      if (!isLoggedIn) set({ isLoggedIn });
      const [who, cart] = await Promise.all([
        isLoggedIn ? readUser() : Promise.resolve({ user: null, ended: false }),
        apiCall('getCart')
          .then((r) => r.cart)
          .catch(() => get().cart),
      ]);
      set({ user: who.user, cart, loaded: true, ...(isLoggedIn && !who.ended && { isLoggedIn }) });
      // The cookie said yes but the server knows nobody: no profile menu shows for nobody.
      if (who.ended) await get().expire();
    },

    async reloadCart() {
      const cart = await apiCall('getCart')
        .then((r) => r.cart)
        .catch(() => get().cart);
      set({ cart });
    },

    async signedIn(user) {
      // Written here too, on the domain a logout writes it: the API's own cookie may be on another.
      await setLoggedInCookie('yes', 'login');
      set({ user, isLoggedIn: isLoggedInCookie(), ended: null });
      await get().reloadCart();
      set({ loaded: true });
    },

    setUser(user) {
      set({ user });
    },

    async addToCart(identifier, itemType = 'CONTENT') {
      if (get().cart.some((item) => item.identifier === identifier)) return 'alreadyInCart';
      const { cart } = await apiCall('addCartItem', { identifier, itemType });
      set({ cart });
      return 'added';
    },

    async removeFromCart(identifier) {
      try {
        const { cart } = await apiCall('removeCartItem', { identifier });
        set({ cart });
      } catch {
        // SPEC.md section 8: a failed removal is swallowed.
      }
    },

    async logout() {
      try {
        await apiCall('logout');
      } catch (error) {
        const status = statusOf(error);
        if (status !== 401 && status !== 0) throw error;
      }
      await setLoggedInCookie('no', 'logout');
      live.close();
      set({ user: null, isLoggedIn: false, cart: [] });
    },

    async expire() {
      await setLoggedInCookie('no', 'authFailure');
      live.close();
      set({ user: null, isLoggedIn: false, ended: { reason: 'expired', at: Date.now() } });
    },

    async followCookie() {
      const cookie = isLoggedInCookie();
      if (cookie === get().isLoggedIn) return;
      if (cookie) return get().load();
      live.close();
      set({ user: null, isLoggedIn: false, cart: [], ended: { reason: 'elsewhere', at: Date.now() } });
    },
  }));
}

/** The page's one session store: every remote reads it through the shared singleton package. */
export const sessionStore = createSessionStore();
// The live channel's login refused as not logged in is the third way a page notices a dead session.
live.onSessionEnd(() => void sessionStore.getState().expire());

/**
 * The store useSession reads: the page's one store in the browser; a page's server provides a
 * store per request, so no visitor's session reaches another's page.
 */
export const SessionStoreContext = createContext<SessionStore>(sessionStore);

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(useContext(SessionStoreContext), selector);
}
