import { describe, expect, it } from 'vitest';
import { isHlsUrl } from './loadHls.js';

describe('isHlsUrl', () => {
  it('knows a playlist by its path or by the file a signed link names in its query', () => {
    expect(isHlsUrl('http://files.test/media/clip/master.m3u8')).toBe(true);
    expect(isHlsUrl('http://files.test/media/clip/master.m3u8?v=2')).toBe(true);
    expect(isHlsUrl('http://files.test/files/content/ci-1?f=master.m3u8&exp=1&sig=s')).toBe(true);
    expect(isHlsUrl('http://files.test/files/content/ci-1?exp=1&f=master.m3u8')).toBe(true);
  });

  it('takes anything else for a plain file', () => {
    expect(isHlsUrl('http://files.test/media/clip.mp4')).toBe(false);
    expect(isHlsUrl('http://files.test/files/content/ci-1?f=360p%2Fseg000.m4s&exp=1')).toBe(false);
    expect(isHlsUrl('http://files.test/media/m3u8s/clip.mp4')).toBe(false);
  });
});
