import { describe, expect, it } from 'vitest';
import { isLoggedInCookie, parentDomain, setLoggedInCookie, setLoginRedirect, takeLoginRedirect } from './cookies.js';

describe('cookies', () => {
  it("is logged in only when loggedIn equals 'yes'", () => {
    expect(isLoggedInCookie()).toBe(false);
    document.cookie = 'loggedIn=yes; path=/';
    expect(isLoggedInCookie()).toBe(true);
    setLoggedInCookie('no', 'logout');
    expect(isLoggedInCookie()).toBe(false);
    document.cookie = 'loggedIn=YES; path=/';
    expect(isLoggedInCookie()).toBe(false);
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

  it('uses the parent domain for real hosts and none for localhost or an IP', () => {
    expect(parentDomain('app.example.com')).toBe('.example.com');
    expect(parentDomain('example.com')).toBeUndefined();
    expect(parentDomain('localhost')).toBeUndefined();
    expect(parentDomain('127.0.0.1')).toBeUndefined();
  });
});
