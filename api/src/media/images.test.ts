import { describe, expect, it } from 'vitest';
import { widthsFor } from './images.js';

describe('widthsFor', () => {
  it('makes the page widths up to the source, never above it, and the source itself when it is narrower than the largest', () => {
    expect(widthsFor(6000)).toEqual([320, 640, 1280, 1920]);
    expect(widthsFor(1920)).toEqual([320, 640, 1280, 1920]);
    expect(widthsFor(1000)).toEqual([320, 640, 1000]);
    expect(widthsFor(640)).toEqual([320, 640]);
    expect(widthsFor(64)).toEqual([64]);
  });
});
