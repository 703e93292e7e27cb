import { describe, expect, it } from 'vitest';
import { messageOf } from './errors.mjs';

describe('messageOf', () => {
  it("says an Error's message, of any subclass", () => {
    expect(messageOf(new Error('disk full'))).toBe('disk full');
    expect(messageOf(new TypeError('not a function'), 'Saving failed')).toBe('not a function');
  });

  it('says anything else thrown as a string', () => {
    expect(messageOf('gone')).toBe('gone');
    expect(messageOf(404)).toBe('404');
    expect(messageOf(undefined)).toBe('undefined');
    expect(messageOf({ message: 'not an Error' })).toBe('[object Object]');
  });

  it('says the fallback instead when one is given, even an empty one', () => {
    expect(messageOf('gone', 'Saving failed')).toBe('Saving failed');
    expect(messageOf(null, '')).toBe('');
  });
});
