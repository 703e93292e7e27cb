import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type LiveIdentity, liveLogins } from './logins.js';

const TTL_MS = 15 * 60_000;
const NOW = 1_800_000_000_000;
const key = randomBytes(32);
const logins = liveLogins(key, TTL_MS);
const leo: LiveIdentity = { liveId: 'bGl2ZS1pZC1sZW8', profileName: 'leo' };
const clara: LiveIdentity = { liveId: 'bGl2ZS1pZC1jbGFy', profileName: 'clara' };

/** The password's two parts: its expiry (seconds) and its signature. */
const partsOf = (password: string) => {
  const [expiry = '', signature = ''] = password.split('.');
  return { expiry, signature };
};

describe('liveLogins', () => {
  it('verifies a login it issued, as the identity it names, until its expiry', () => {
    const login = logins.issue(leo, NOW);
    expect(login.username).toBe(logins.usernameOf(leo));
    expect(logins.verify(login.username, login.password, NOW)).toEqual(leo);
    expect(logins.verify(login.username, login.password, NOW + TTL_MS - 1)).toEqual(leo);
  });

  it('refuses an expired password', () => {
    const login = logins.issue(leo, NOW);
    const expiresAt = Number(partsOf(login.password).expiry) * 1000;
    expect(logins.verify(login.username, login.password, expiresAt)).toBeNull();
    expect(logins.verify(login.username, login.password, NOW + TTL_MS + 1000)).toBeNull();
  });

  it('refuses a wrong signature: another key, a changed character, none at all', () => {
    const login = logins.issue(leo, NOW);
    const forged = liveLogins(randomBytes(32), TTL_MS).issue(leo, NOW);
    expect(forged.username).toBe(login.username);
    expect(logins.verify(forged.username, forged.password, NOW)).toBeNull();
    const { expiry, signature } = partsOf(login.password);
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(logins.verify(login.username, `${expiry}.${flipped}`, NOW)).toBeNull();
    expect(logins.verify(login.username, `${expiry}.${signature.slice(0, -1)}`, NOW)).toBeNull();
    for (const password of ['', expiry, `${expiry}.`, `${expiry}.${signature}.x`, `x${expiry}.${signature}`])
      expect(logins.verify(login.username, password, NOW), password).toBeNull();
  });

  it('refuses a password moved to another username: another session, another profile, a later expiry', () => {
    const login = logins.issue(leo, NOW);
    // Another session's name, or this session's with another user's profile (their topics).
    for (const username of [
      logins.usernameOf(clara),
      logins.usernameOf({ liveId: leo.liveId, profileName: 'clara' }),
      logins.usernameOf({ liveId: clara.liveId, profileName: 'leo' }),
    ])
      expect(logins.verify(username, login.password, NOW), username).toBeNull();
    const { expiry, signature } = partsOf(login.password);
    expect(logins.verify(login.username, `${Number(expiry) + 3600}.${signature}`, NOW)).toBeNull();
  });

  it('refuses a profile spelled in base64 other than the one it writes, even signed with its key', () => {
    const canonical = logins.usernameOf(clara);
    const profile = canonical.split('.')[2] ?? '';
    expect(profile).toBe('Y2xhcmE');
    // Each of these decodes to 'clara' as well: unused trailing bits, padding, a character base64url skips.
    for (const spelling of ['Y2xhcmF', 'Y2xhcmE=', 'Y2xh!cmE', 'Y2xh cmE']) {
      expect(Buffer.from(spelling, 'base64url').toString('utf8')).toBe('clara');
      const username = `s.${clara.liveId}.${spelling}`;
      expect(logins.parse(username), spelling).toBeNull();
      // Signed as logins.ts signs: only the spelling refuses it.
      const expiry = String(Math.ceil((NOW + TTL_MS) / 1000));
      const signature = createHmac('sha256', key).update(`${username}|${expiry}`).digest('base64url');
      expect(logins.verify(username, `${expiry}.${signature}`, NOW), spelling).toBeNull();
    }
  });

  it('parses the usernames it makes back to their identity, profile names with dots and unicode included', () => {
    for (const profileName of ['leo', 'j.doe', '.a..b.', 'Zoë', 'Ἀθηνᾶ', '写真家', 'cam📷ra', 'a/b+c#d', 'x y']) {
      const identity = { liveId: leo.liveId, profileName };
      const username = logins.usernameOf(identity);
      // Three dot-separated parts whatever the name: base64url has no dot.
      expect(username.split('.'), profileName).toHaveLength(3);
      expect(logins.parse(username)).toEqual(identity);
      const login = logins.issue(identity, NOW);
      expect(logins.verify(login.username, login.password, NOW)).toEqual(identity);
    }
  });

  it("parses nothing it did not make: the API's own login, another prefix, missing or extra parts", () => {
    const made = logins.usernameOf(leo);
    const [, liveId, profile] = made.split('.');
    for (const username of [
      'api',
      '',
      `t.${liveId}.${profile}`,
      `s.${liveId}`,
      `s..${profile}`,
      `s.${liveId}.`,
      `${made}.x`,
    ])
      expect(logins.parse(username), username).toBeNull();
  });
});
