import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradientPng } from '../db/png.js';
import { matchesDeclaredType, resolveMediaPath } from './paths.js';

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

describe('matchesDeclaredType', () => {
  it('recognises a PNG and refuses it as a JPEG, and refuses text', () => {
    const png = gradientPng(4, 4, 1);
    expect(matchesDeclaredType(png, 'image/png')).toBe(true);
    expect(matchesDeclaredType(png, 'image/jpeg')).toBe(false);
    expect(matchesDeclaredType(new TextEncoder().encode('GIF8 but text'), 'image/png')).toBe(false);
    expect(matchesDeclaredType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg')).toBe(true);
  });
  it('tells videos by their container: ISO base media for MP4 and MOV, EBML for WebM', () => {
    const mp4 = new Uint8Array([0, 0, 0, 0x20, ...new TextEncoder().encode('ftypisom')]);
    expect(matchesDeclaredType(mp4, 'video/mp4')).toBe(true);
    expect(matchesDeclaredType(mp4, 'video/quicktime')).toBe(true);
    expect(matchesDeclaredType(mp4, 'video/webm')).toBe(false);
    expect(matchesDeclaredType(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), 'video/webm')).toBe(true);
    expect(matchesDeclaredType(new TextEncoder().encode('<svg xmlns="x"/>'), 'video/mp4')).toBe(false);
  });
});
