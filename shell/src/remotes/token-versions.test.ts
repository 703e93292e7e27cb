import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marketplace/shared';
import { REMOTE_NAMES, UNRELEASED_VERSION } from '@marketplace/shared/platform';
import { COHORT_COOKIE as SIGNED_COHORT_COOKIE, pageVersions } from 'page-server/rum-token';
import type { DiscoveryDocument } from './choice.js';
import { COHORT_COOKIE } from './cohort.js';
import { storedVersionOf } from './discovery.js';
import { versionsForRequest } from './requestVersions.js';

// The page server signs a page load's beacon token for the versions the page may use
// (page-server/rum-token.ts); the API refuses a beacon naming any other. Those versions must be
// exactly the ones this shell takes for the same request (versionsForRequest, what its server
// renders and its browser loads): for a request with a cohort, the one it takes; for one without,
// every version some cohort would take. Checked here over every kind of request.
const configured = {
  header: 'http://localhost:3001/mf-manifest.json',
  media: 'http://releases.test/media/eeeeeeeeeeee/mf-manifest.json',
  eventOrder: 'http://localhost:3003/mf-manifest.json',
  account: 'http://localhost:3004/mf-manifest.json',
};
const DOC_URL = 'http://releases.test/discovery.json';
const pointer = (remote: string, version: string) => ({ version, manifest: `${remote}/${version}/mf-manifest.json` });
const docs: Record<string, DiscoveryDocument | null> = {
  'a canary at 20 %': {
    remotes: {
      header: {
        live: pointer('header', 'aaaaaaaaaaaa'),
        canary: { ...pointer('header', 'bbbbbbbbbbbb'), percent: 20 },
        versions: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'],
      },
      account: { live: pointer('account', 'dddddddddddd'), versions: ['dddddddddddd'] },
    },
  },
  'live only': { remotes: { header: { live: pointer('header', 'aaaaaaaaaaaa') } } },
  'a canary with no live yet': {
    remotes: { header: { canary: { ...pointer('header', 'bbbbbbbbbbbb'), percent: 50 } } },
  },
  'none composed': null,
};
const cookies = ['', 'platform-cohort=5', 'a=1; platform-cohort=20', 'platform-cohort=99', 'platform-cohort=abc'];
const searches = [
  '',
  '?version=header@cccccccccccc',
  '?version=header@ffffffffffff',
  '?version=account@dddddddddddd&version=header@local',
  '?version=clear',
];
const switches = [
  { allowVersionOverride: false, allowLocalRemotes: false },
  { allowVersionOverride: true, allowLocalRemotes: true },
];

/** What the shell takes for each remote, for a request with this cohort cookie. */
function taken(config: RuntimeConfig, discovery: DiscoveryDocument | null, cookie: string, search: string) {
  const { remotes } = versionsForRequest(config, { config, discovery, manifests: {} }, cookie, search);
  return Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, storedVersionOf(remotes[name]) ?? UNRELEASED_VERSION]),
  ) as Record<string, string>;
}

describe('the versions a page load is signed for', () => {
  // The shell says which asked-for versions it does not load; here that is expected.
  beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));

  it('read the same cohort cookie', () => {
    expect(SIGNED_COHORT_COOKIE).toBe(COHORT_COOKIE);
  });

  for (const [name, doc] of Object.entries(docs))
    for (const withStore of [true, false])
      it(`are those the shell takes, ${withStore ? 'with' : 'without'} a release store (${name})`, () => {
        let cases = 0;
        for (const allowed of switches)
          for (const cookie of cookies)
            for (const search of searches) {
              const config = {
                remotes: configured,
                ...(withStore && { discoveryUrl: DOC_URL }),
                ...allowed,
              } as RuntimeConfig;
              const signed = pageVersions({ config, discovery: doc, composes: true, cookie, search });
              const context = `${allowed.allowVersionOverride} ${cookie} ${search}`;
              if (withStore && !doc) {
                // The browser reads the document itself: nothing to sign for.
                expect(signed, context).toBeNull();
                const unread = versionsForRequest(config, { config, discovery: null, manifests: {} }, cookie, search);
                expect(unread.undecided.size).toBe(4);
                cases += 1;
                continue;
              }
              const decided = versionsForRequest(config, { config, discovery: doc, manifests: {} }, cookie, search);
              // Without a cohort the browser draws one: any cohort's versions may be the page's.
              const cohorts =
                decided.undecided.size > 0 ? Array.from({ length: 100 }, (_, c) => `${COHORT_COOKIE}=${c}`) : [cookie];
              const expected = Object.fromEntries(
                REMOTE_NAMES.map((remote) => [
                  remote,
                  [...new Set(cohorts.map((c) => taken(config, withStore ? doc : null, c, search)[remote]))].sort(),
                ]),
              );
              const sorted = Object.fromEntries(
                Object.entries(signed ?? {}).map(([remote, versions]) => [remote, [...versions].sort()]),
              );
              expect(sorted, context).toEqual(expected);
              cases += 1;
            }
        expect(cases).toBeGreaterThan(0);
      });
});
