import { describe, expect, it } from 'vitest';
import { isLoggedInCookie, parentDomain, setLoggedInCookie, setLoginRedirect, takeLoginRedirect } from './cookies.js';

describe('cookies', () => {
  it("is logged in only when loggedIn equals 'yes'", async () => {
    expect(isLoggedInCookie()).toBe(false);
    document.cookie = 'loggedIn=yes; path=/';
    expect(isLoggedInCookie()).toBe(true);
    await setLoggedInCookie('no', 'logout');
    expect(isLoggedInCookie()).toBe(false);
    document.cookie = 'loggedIn=YES; path=/';
    expect(isLoggedInCookie()).toBe(false);
  });

  it("reads the same rule from a request's Cookie header (the page's server)", () => {
    expect(isLoggedInCookie('loggedIn=yes')).toBe(true);
    expect(isLoggedInCookie('platform-cohort=12; loggedIn=yes; other=1')).toBe(true);
    expect(isLoggedInCookie('a=1;loggedIn=yes')).toBe(true);
    expect(isLoggedInCookie('loggedIn=no; x=yes')).toBe(false);
    expect(isLoggedInCookie('notloggedIn=yes')).toBe(false);
    expect(isLoggedInCookie('loggedIn=yesplease')).toBe(false);
    expect(isLoggedInCookie('')).toBe(false);
  });

  it('hands the login redirect back once, and only a site-relative path', () => {
    setLoginRedirect('/events?x=1');
    expect(takeLoginRedirect()).toBe('/events?x=1');
    expect(takeLoginRedirect()).toBeNull();
    setLoginRedirect('//evil.example/x');
    expect(takeLoginRedirect()).toBeNull();
    setLoginRedirect('https://evil.example/');
    expect(takeLoginRedirect()).toBeNull();
  });

  it.each([
    ['app.example.com', '.example.com'],
    ['app.example.co.uk', '.example.co.uk'],
    ['a.b.example.com.au', '.example.com.au'],
    ['shop.example.qld.edu.au', '.example.qld.edu.au'],
    ['www.example.co.jp', '.example.co.jp'],
    ['app.someone.github.io', '.someone.github.io'],
  ])('gives %s the parent domain %s from the public suffix list', async (host, domain) => {
    expect(await parentDomain(host)).toBe(domain);
  });

  it.each(['example.com', 'example.co.uk', 'someone.github.io', 'localhost', '127.0.0.1', '[::1]'])(
    'sets no domain on %s (host-only cookie)',
    async (host) => {
      expect(await parentDomain(host)).toBeUndefined();
    },
  );
});
