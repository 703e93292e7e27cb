import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../test/msw.js';
import { cartItem, userInfo } from '../test/factories.js';
import { createSessionStore } from './store.js';

const server = useMswServer();

const item = cartItem;
const user = userInfo();

describe('session store', () => {
  it('loads the user only when the loggedIn cookie says so, and the cart always', async () => {
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json(user)),
      http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [item('a')] })),
    );
    const visitor = createSessionStore();
    await visitor.getState().load();
    expect(visitor.getState()).toMatchObject({ user: null, isLoggedIn: false, cart: [item('a')] });

    document.cookie = 'loggedIn=yes; path=/';
    const member = createSessionStore();
    await member.getState().load();
    expect(member.getState()).toMatchObject({ user, isLoggedIn: true });
  });

  it('follows the loggedIn cookie another tab wrote: its log in loads the user, its logout forgets user and cart', async () => {
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json(user)),
      http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [item('a')] })),
    );
    const store = createSessionStore();
    await store.getState().followCookie();
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false, ended: null });
    document.cookie = 'loggedIn=yes; path=/';
    await store.getState().followCookie();
    expect(store.getState()).toMatchObject({ user, isLoggedIn: true, cart: [item('a')], ended: null });
    document.cookie = 'loggedIn=no; path=/';
    await store.getState().followCookie();
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false, cart: [], ended: { reason: 'elsewhere' } });
  });

  it.each([
    ['401', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })],
    ['403', () => HttpResponse.json({ error: 'Forbidden' }, { status: 403 })],
    ['no answer', () => HttpResponse.error()],
    ['an empty username', () => HttpResponse.json({ ...user, username: '' })],
  ])(
    'with the cookie saying yes but userInfo answering %s, ends the session: not logged in, cookie no',
    async (_label, answer) => {
      server.use(
        http.get('http://api.test/v2/userInfo', answer),
        http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [item('a')] })),
      );
      document.cookie = 'loggedIn=yes; path=/';
      const store = createSessionStore();
      expect(store.getState().isLoggedIn).toBe(true);
      await store.getState().load();
      expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false, cart: [item('a')] });
      expect(document.cookie).toContain('loggedIn=no');
    },
  );

  it('a page rendered for a visitor, in a browser whose cookie claims a session the API does not know: never logged in, so nothing of a session ends with it but the claim', async () => {
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })),
      http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })),
    );
    document.cookie = 'loggedIn=yes; path=/';
    const store = createSessionStore({ isLoggedIn: false, session: null });
    const saidLoggedIn: boolean[] = [];
    store.subscribe((state) => saidLoggedIn.push(state.isLoggedIn));
    await store.getState().load();
    expect(saidLoggedIn).not.toContain(true);
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false, ended: { reason: 'expired' } });
    expect(document.cookie).toContain('loggedIn=no');
  });

  it('stays logged in with the user unknown for now when userInfo answers 500', async () => {
    server.use(
      http.get('http://api.test/v2/userInfo', () => HttpResponse.json({ error: 'down' }, { status: 500 })),
      http.get('http://api.test/v2/user/cart', () => HttpResponse.json({ cart: [] })),
    );
    document.cookie = 'loggedIn=yes; path=/';
    const store = createSessionStore();
    await store.getState().load();
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: true });
    expect(document.cookie).toContain('loggedIn=yes');
  });

  it('refuses an item already in the cart without calling the API', async () => {
    let calls = 0;
    server.use(
      http.post('http://api.test/v2/user/cart/addItem', () => {
        calls++;
        return HttpResponse.json({ cart: [item('a')] });
      }),
    );
    const store = createSessionStore();
    expect(await store.getState().addToCart('a')).toBe('added');
    expect(store.getState().cart).toEqual([item('a')]);
    expect(await store.getState().addToCart('a')).toBe('alreadyInCart');
    expect(calls).toBe(1);
  });

  it('swallows a failed removal and keeps the cart', async () => {
    server.use(
      http.post('http://api.test/v2/user/cart/removeItem', () => HttpResponse.json({ error: 'x' }, { status: 500 })),
    );
    const store = createSessionStore();
    store.setState({ cart: [item('a')] });
    await expect(store.getState().removeFromCart('a')).resolves.toBeUndefined();
    expect(store.getState().cart).toEqual([item('a')]);
  });

  it.each([
    ['200', () => HttpResponse.json({ loggedOut: true })],
    ['401', () => HttpResponse.json({ error: 'Not logged in' }, { status: 401 })],
    ['status 0', () => HttpResponse.error()],
  ])('counts logout answered %s as success: cookie no, user and cart cleared', async (_label, answer) => {
    server.use(http.post('http://api.test/v2/logout', answer));
    document.cookie = 'loggedIn=yes; path=/';
    const store = createSessionStore();
    store.setState({ user, cart: [item('a')] });
    await store.getState().logout();
    expect(store.getState()).toMatchObject({ user: null, isLoggedIn: false, cart: [] });
    expect(document.cookie).toContain('loggedIn=no');
  });

  it('keeps the session when logout fails otherwise', async () => {
    server.use(http.post('http://api.test/v2/logout', () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    document.cookie = 'loggedIn=yes; path=/';
    const store = createSessionStore();
    store.setState({ user });
    await expect(store.getState().logout()).rejects.toMatchObject({ status: 500 });
    expect(store.getState().user).toEqual(user);
    expect(document.cookie).toContain('loggedIn=yes');
  });
});
