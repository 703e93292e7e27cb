import { describe, expect, it } from 'vitest';
import { keyOf, mediaJobOf } from './mediaJob.js';

describe('a queued media job read back', () => {
  it('is its kind and identifier, keyed by both', () => {
    const job = mediaJobOf(JSON.parse(JSON.stringify({ kind: 'formats', id: 'tgt-1' })));
    expect(job).toEqual({ kind: 'formats', id: 'tgt-1' });
    expect(keyOf(job)).toBe('formats:tgt-1');
  });

  it('reads a job queued in the earlier shape, under the key it was queued with', () => {
    expect(mediaJobOf({ targetIdentifier: 'tgt-2' })).toEqual({ kind: 'target', id: 'tgt-2' });
    expect(mediaJobOf({ contentIdentifier: 'photo-1' })).toEqual({ kind: 'content', id: 'photo-1' });
    expect(mediaJobOf({ coverOf: 'jazz' })).toEqual({ kind: 'cover', id: 'jazz' });
    expect(mediaJobOf({ avatarOf: 'leo' })).toEqual({ kind: 'avatar', id: 'leo' });
    expect(keyOf(mediaJobOf({ formatsOf: 'tgt-3' }))).toBe('formats:tgt-3');
  });

  it('refuses anything else, saying what it was', () => {
    for (const payload of [null, 'target:x', { kind: 'video', id: 'x' }, { kind: 'target', id: 7 }, { other: 'x' }])
      expect(() => mediaJobOf(payload)).toThrow(/Not a media job/);
  });
});
