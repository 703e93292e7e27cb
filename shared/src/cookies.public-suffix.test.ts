// @vitest-environment-options {"url": "https://app.example.co.uk/"}
import { describe, expect, it } from 'vitest';
import { isLoggedInCookie, setLoggedInCookie } from './cookies.js';

// jsdom's cookie jar refuses a cookie on a public suffix as browsers do, so this shows what a
// person on app.example.co.uk gets: a `.co.uk` cookie would be dropped and loggedIn stay 'yes'.
describe('the loggedIn cookie on a host under a two-label public suffix', () => {
  it("is 'no' after logout when the login set 'yes' on the parent domain", async () => {
    document.cookie = 'loggedIn=yes; path=/; domain=.example.co.uk';
    expect(isLoggedInCookie()).toBe(true);
    await setLoggedInCookie('no', 'logout');
    expect(isLoggedInCookie()).toBe(false);
    expect(document.cookie).toBe('loggedIn=no');
  });
});
