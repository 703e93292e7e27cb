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

  it("is 'no' after logout when the API wrote 'yes' on the page's own host (COOKIE_DOMAIN unset)", async () => {
    // The API answering on the page's host without a domain: a host-only cookie beside the
    // parent domain's, which the browser would send first.
    document.cookie = 'loggedIn=yes; path=/';
    await setLoggedInCookie('no', 'logout');
    expect(isLoggedInCookie()).toBe(false);
    expect(document.cookie).toBe('loggedIn=no');
  });

  it("is 'yes' after a log in that follows a logout on the parent domain", async () => {
    document.cookie = 'loggedIn=no; path=/; domain=.example.co.uk';
    // The API's log in answer, on the page's host.
    document.cookie = 'loggedIn=yes; path=/';
    await setLoggedInCookie('yes', 'login');
    expect(isLoggedInCookie()).toBe(true);
    expect(document.cookie).toBe('loggedIn=yes');
  });
});
