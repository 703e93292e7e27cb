import { describe, expect, it } from 'vitest';
import { safeHref } from './safeHref.js';

describe('safeHref', () => {
  it.each([
    ['/user/orders', '/user/orders'],
    ['https://example.com/a', 'https://example.com/a'],
    ['http://localhost:4000/x', 'http://localhost:4000/x'],
    ['javascript:alert(1)', null],
    [' JavaScript:alert(1)', null],
    ['data:text/html,<script>', null],
    ['//evil.example', null],
    ['/\\evil.example', null],
    ['', null],
    [null, null],
  ])('%j -> %j', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });
});
