import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime.js';
import { TEST_CONFIG } from '../test/setup.js';

describe('parseRuntimeConfig', () => {
  it('accepts a complete config', () => {
    expect(parseRuntimeConfig(TEST_CONFIG)).toEqual(TEST_CONFIG);
  });

  it('names the first missing or non-URL field', () => {
    expect(() => parseRuntimeConfig({ ...TEST_CONFIG, apiOrigin: 'nope' })).toThrow('apiOrigin must be a URL');
    expect(() =>
      parseRuntimeConfig({ ...TEST_CONFIG, remotes: { ...TEST_CONFIG.remotes, media: 'javascript:alert(1)' } }),
    ).toThrow('remotes.media');
    expect(() => parseRuntimeConfig(null)).toThrow('apiOrigin');
  });

  it('takes a discovery document URL, treats an empty one as none, and refuses anything else', () => {
    expect(
      parseRuntimeConfig({ ...TEST_CONFIG, discoveryUrl: 'http://releases.test/discovery.json' }).discoveryUrl,
    ).toBe('http://releases.test/discovery.json');
    expect(parseRuntimeConfig({ ...TEST_CONFIG, discoveryUrl: '' })).toEqual(TEST_CONFIG);
    expect(() => parseRuntimeConfig({ ...TEST_CONFIG, discoveryUrl: 'javascript:alert(1)' })).toThrow(
      'discoveryUrl must be a URL',
    );
    expect(parseRuntimeConfig({ ...TEST_CONFIG, allowVersionOverride: true }).allowVersionOverride).toBe(true);
    expect(() => parseRuntimeConfig({ ...TEST_CONFIG, allowVersionOverride: 'yes' })).toThrow(
      'allowVersionOverride must be true or false',
    );
    expect(() => parseRuntimeConfig({ ...TEST_CONFIG, allowLocalRemotes: 1 })).toThrow(
      'allowLocalRemotes must be true or false',
    );
    expect(parseRuntimeConfig({ ...TEST_CONFIG, rumSample: 0.25 }).rumSample).toBe(0.25);
    for (const rumSample of [-0.1, 1.5, '1'])
      expect(() => parseRuntimeConfig({ ...TEST_CONFIG, rumSample })).toThrow('rumSample must be a number from 0 to 1');
  });

  it('takes the object store uploads go to as a URL, and refuses anything else', () => {
    expect(parseRuntimeConfig({ ...TEST_CONFIG, uploadOrigin: 'http://localhost:4569' }).uploadOrigin).toBe(
      'http://localhost:4569',
    );
    expect(() => parseRuntimeConfig({ ...TEST_CONFIG, uploadOrigin: 'data:,x' })).toThrow('uploadOrigin must be a URL');
  });
});
