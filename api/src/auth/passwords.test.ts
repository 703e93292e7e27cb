import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const a = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(a);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });

  it('hashes off the event loop: other work runs while a login is being checked', async () => {
    const stored = await hashPassword('correct horse');
    const order: string[] = [];
    const checking = verifyPassword('correct horse', stored).then(() => order.push('verified'));
    // With scryptSync the check would finish before this callback got its turn.
    setImmediate(() => order.push('other work'));
    await checking;
    expect(order).toEqual(['other work', 'verified']);
  });
});
