import { describe, expect, it } from 'vitest';
import { matchRoutes } from '../router.js';
import { pageAt } from './pageAt.js';
import { PAGE_LIST } from './pages.js';

/** A path for each page (its parameters filled), the ambiguous ones, and some that are no page. */
const PATHS = [
  ...PAGE_LIST.map((page) => page.path.replace(/:[A-Za-z]+/g, 'login')),
  ...PAGE_LIST.map((page) => page.path.replace(/:[A-Za-z]+/g, 'x-1')),
  '/user/login/',
  '/USER/Login',
  '/user/someone',
  '/user',
  '/event',
  '/event/a/b',
  '/nowhere',
  '//events',
];

describe('pageAt', () => {
  it('finds the page the router would render, for every page and the ambiguous paths', () => {
    for (const path of PATHS) expect(pageAt(path)?.key, path).toBe(matchRoutes([...PAGE_LIST], path)?.[0]?.route.key);
  });

  it('ranks a static page above a parameter: /user/login is the login page, /user/someone a creator', () => {
    expect(pageAt('/user/login')?.key).toBe('login');
    expect(pageAt('/user/someone')?.key).toBe('creator');
    expect(pageAt('/nowhere')).toBeUndefined();
  });
});
