import { describe, expect, it } from 'vitest';
import {
  chosenPointer,
  cohortIn,
  cohortValue,
  cookieIn,
  loggedInIn,
  overrideManifest,
  PLATFORM_COOKIES,
  storedVersionOf,
} from './choice.mjs';

// The platform's one cookie table and version choice (issue 38, item 6): what every reader of
// cookies and chooser of versions (browser, page server, boot script, beacon tokens, nginx's
// labels) gets. nginx's own maps are held to these in page-server/nginx.test.ts.
describe('the cookie table', () => {
  it('reads the first cookie of a name, whole names only', () => {
    expect(cookieIn('a=1; platform-cohort=7; platform-cohort=9', PLATFORM_COOKIES.cohort)).toBe('7');
    expect(cookieIn('xplatform-cohort=7', PLATFORM_COOKIES.cohort)).toBeNull();
    expect(cookieIn(undefined, 'a')).toBeNull();
  });

  it('reads a cohort as one or two digits, and logged in as exactly yes', () => {
    expect([cohortValue('05'), cohortValue('99'), cohortValue('100'), cohortValue('5x'), cohortValue(null)]).toEqual([
      5,
      99,
      null,
      null,
      null,
    ]);
    expect(cohortIn('platform-cohort=42')).toBe(42);
    expect([loggedInIn('loggedIn=yes'), loggedInIn('loggedIn=YES'), loggedInIn('loggedIn=no; loggedIn=yes')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('the version choice', () => {
  const entry = {
    live: { version: 'aaaaaaaaaaaa', manifest: 'header/aaaaaaaaaaaa/mf-manifest.json' },
    canary: { version: 'bbbbbbbbbbbb', manifest: 'header/bbbbbbbbbbbb/mf-manifest.json', percent: 10 },
    versions: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'],
  };

  it("takes the canary below its share, live at or above it and before a browser's cohort is drawn", () => {
    expect(chosenPointer(entry, 9)).toBe(entry.canary);
    expect(chosenPointer(entry, 10)).toBe(entry.live);
    expect(chosenPointer(entry, null)).toBe(entry.live);
    expect(chosenPointer(undefined, 3)).toBeNull();
  });

  it("takes a tester's version only where the deployment allows it and the store lists it", () => {
    const doc = { remotes: { header: entry } };
    const both = { storeVersions: true, local: true };
    expect(overrideManifest('header', 'bbbbbbbbbbbb', doc, both)).toBe('header/bbbbbbbbbbbb/mf-manifest.json');
    expect(overrideManifest('header', 'cccccccccccc', doc, both)).toBeNull();
    expect(overrideManifest('header', '../../evil', doc, both)).toBeNull();
    expect(overrideManifest('header', 'bbbbbbbbbbbb', doc, { storeVersions: false, local: true })).toBeNull();
    expect(overrideManifest('header', 'local', null, both)).toBe('local');
    expect(overrideManifest('header', 'local', null, { storeVersions: true, local: false })).toBeNull();
  });

  it('runs as its own text, as the boot script carries it', () => {
    const run = new Function(
      `var PLATFORM_COOKIES = ${JSON.stringify({ cohort: PLATFORM_COOKIES.cohort })};
      ${[cookieIn, cohortValue, cohortIn, chosenPointer].map(String).join('\n')}
      return chosenPointer(arguments[0], cohortIn(arguments[1]));`,
    ) as (e: typeof entry, cookie: string) => unknown;
    expect(run(entry, 'platform-cohort=03')).toEqual(entry.canary);
    expect(run(entry, 'platform-cohort=50')).toEqual(entry.live);
  });
});

describe("a manifest's version", () => {
  it('is the release store version its URL names, relative ones resolved against the discovery document; else none', () => {
    expect(storedVersionOf('https://store.test/releases/header/0123456789ab/mf-manifest.json')).toBe('0123456789ab');
    expect(storedVersionOf('header/0123456789ab/mf-manifest.json', 'https://store.test/releases/discovery.json')).toBe(
      '0123456789ab',
    );
    // A development server, a configured URL, a version not of the store's shape, no URL.
    expect(storedVersionOf('http://localhost:3001/mf-manifest.json')).toBeNull();
    expect(storedVersionOf('https://store.test/releases/header/0123456789AB/mf-manifest.json')).toBeNull();
    expect(storedVersionOf('https://store.test/header/0123456789ab/remoteEntry.js')).toBeNull();
    expect(storedVersionOf('')).toBeNull();
    expect(storedVersionOf('not a url')).toBeNull();
  });
});
