import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradientPng } from '../db/png.js';
import { matchesImageType, resolveMediaPath } from './paths.js';

const root = '/srv/media';

describe('resolveMediaPath', () => {
  it('resolves a plain relative path inside the folder', () => {
    expect(resolveMediaPath(root, 'events/a/photo.png')).toEqual({ ok: true, path: join(root, 'events/a/photo.png') });
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', 'a/%2e%2e/x', 'a/./b', 'a//b', 'D:/x', 'a\0b', ''])(
    'refuses %j',
    (p) => {
      expect(resolveMediaPath(root, p).ok).toBe(false);
    },
  );
});

describe('matchesImageType', () => {
  it('recognises a PNG and refuses it as a JPEG, and refuses text', () => {
    const png = gradientPng(4, 4, 1);
    expect(matchesImageType(png, 'image/png')).toBe(true);
    expect(matchesImageType(png, 'image/jpeg')).toBe(false);
    expect(matchesImageType(new TextEncoder().encode('GIF8 but text'), 'image/png')).toBe(false);
    expect(matchesImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg')).toBe(true);
  });
});
