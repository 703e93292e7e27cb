import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the right password only, with a fresh salt per hash', () => {
    const a = hashPassword('correct horse');
    expect(verifyPassword('correct horse', a)).toBe(true);
    expect(verifyPassword('correct horsE', a)).toBe(false);
    expect(hashPassword('correct horse')).not.toBe(a);
    expect(verifyPassword('x', 'plain-text')).toBe(false);
  });
});
