import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEACON_TOKEN_PATH } from '../src/platform/beacon.js';
import {
  checkRumTokenKey,
  readOrCreateRumTokenKey,
  RUM_TOKEN_KEY_FILE,
  RUM_TOKEN_PATH,
  RUM_TOKEN_TTL_S,
  signRumToken,
  verifyRumToken,
} from './rum-token.mjs';

const KEY = 'k'.repeat(40);
const NOW = Date.UTC(2026, 5, 1);
const claims = {
  load: '0b6f9f1c-8a43-4d0e-9c5e-3f1a2b4c5d6e',
  versions: { header: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'], media: ['unreleased'] },
  cohort: null,
};

/** The token with its payload replaced by `change(claims)`, the signature kept. */
const tampered = (token: string, change: (c: Record<string, unknown>) => void) => {
  const [payload = '', signature = ''] = token.split('.');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  change(decoded);
  return `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
};

describe('the page-load token', () => {
  it('carries what it was signed with, until it expires', () => {
    const token = signRumToken(KEY, claims, { now: NOW });
    expect(verifyRumToken(KEY, token, NOW)).toEqual({ claims: { ...claims, exp: NOW / 1000 + RUM_TOKEN_TTL_S } });
    expect(verifyRumToken(KEY, token, NOW + RUM_TOKEN_TTL_S * 1000 - 1)).toHaveProperty('claims');
    expect(verifyRumToken(KEY, token, NOW + RUM_TOKEN_TTL_S * 1000)).toEqual({ problem: 'expired' });
  });

  it('is refused under another key, with a changed payload or signature, or cut or padded', () => {
    const token = signRumToken(KEY, claims, { now: NOW });
    expect(verifyRumToken('x'.repeat(40), token, NOW)).toEqual({ problem: 'signature' });
    // Another version, another load, a later expiry: each with the original signature.
    for (const change of [
      (c: Record<string, unknown>) => (c.versions = { header: ['cccccccccccc'] }),
      (c: Record<string, unknown>) => (c.load = '11111111-1111-4111-8111-111111111111'),
      (c: Record<string, unknown>) => (c.exp = Number(c.exp) + 3600),
    ])
      expect(verifyRumToken(KEY, tampered(token, change), NOW)).toEqual({ problem: 'signature' });
    const [payload = '', signature = ''] = token.split('.');
    // One character in the middle (the last one has bits a decoder ignores).
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(verifyRumToken(KEY, `${payload}.${flipped}`, NOW)).toEqual({ problem: 'signature' });
    expect(verifyRumToken(KEY, `${payload}.${signature.slice(0, 20)}`, NOW)).toEqual({ problem: 'signature' });
    for (const bad of ['', payload, `${payload}.`, `${token}.x`, `${payload}.${signature}=`, 'a.b c'])
      expect(verifyRumToken(KEY, bad, NOW)).toEqual({ problem: 'malformed' });
  });

  it('refuses a signed payload that is not claims (a key used for something else)', () => {
    const payload = Buffer.from(JSON.stringify({ load: 1 })).toString('base64url');
    const signature = createHmac('sha256', KEY).update(payload).digest('base64url');
    expect(verifyRumToken(KEY, `${payload}.${signature}`, NOW)).toEqual({ problem: 'malformed' });
  });

  it('needs a key long enough not to be guessed from a token', () => {
    expect(() => checkRumTokenKey('short')).toThrow(/at least 32 characters/);
    expect(checkRumTokenKey(KEY)).toBe(KEY);
  });

  it('keeps a development key beside the data, made once, readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rum-token-key-'));
    try {
      const key = readOrCreateRumTokenKey(join(dir, 'data'));
      expect(key.length).toBeGreaterThanOrEqual(32);
      expect(readOrCreateRumTokenKey(join(dir, 'data'))).toBe(key);
      expect(readFileSync(join(dir, 'data', RUM_TOKEN_KEY_FILE), 'utf8')).toBe(key);
      expect(statSync(join(dir, 'data', RUM_TOKEN_KEY_FILE)).mode & 0o077).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is asked for where the browser asks for it', () => {
    expect(BEACON_TOKEN_PATH).toBe(RUM_TOKEN_PATH);
  });
});
