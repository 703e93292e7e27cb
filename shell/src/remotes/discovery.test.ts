import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marketplace/shared';
import { chooseRemotes, type DiscoveryDocument } from './choice.js';
import { browserCohort } from './cohort.js';
import { resolveRemotes } from './discovery.js';
import { requestedOverrides } from './overrides.js';
import { versionsForRequest } from './requestVersions.js';
import { rolledBackSwitches } from './rollbacks.js';

const configured = {
  header: 'http://localhost:3001/mf-manifest.json',
  media: 'http://localhost:3002/mf-manifest.json',
  eventOrder: 'http://localhost:3003/mf-manifest.json',
  account: 'http://localhost:3004/mf-manifest.json',
};
const DOC_URL = 'http://releases.test/discovery.json';
const doc: DiscoveryDocument = {
  remotes: {
    header: {
      live: { version: 'aaaaaaaaaaaa', manifest: 'header/aaaaaaaaaaaa/mf-manifest.json' },
      canary: { version: 'bbbbbbbbbbbb', manifest: 'header/bbbbbbbbbbbb/mf-manifest.json', percent: 20 },
    },
    media: { live: { version: 'cccccccccccc', manifest: 'media/cccccccccccc/mf-manifest.json' } },
  },
};

/** A tab's storage. */
const memory = () => {
  const store = new Map<string, string>();
  return {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
};

describe('the discovery document', () => {
  it("gives each released remote its live version's manifest, the canary's to the browsers in its share, and leaves the others configured", () => {
    const manifestsFrom = (cohort: number) =>
      chooseRemotes({ remotes: configured, discoveryUrl: DOC_URL }, doc, cohort, {}).remotes;
    const outside = manifestsFrom(20);
    expect(outside.header).toBe('http://releases.test/header/aaaaaaaaaaaa/mf-manifest.json');
    expect(outside.media).toBe('http://releases.test/media/cccccccccccc/mf-manifest.json');
    expect(outside.account).toBe(configured.account);
    expect(manifestsFrom(19).header).toBe('http://releases.test/header/bbbbbbbbbbbb/mf-manifest.json');
  });

  it('keeps a browser in its cohort across loads, in a first-party cookie', () => {
    const jar = { cookie: '' };
    const none = { getItem: () => null };
    const first = browserCohort(jar, none);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(100);
    expect(jar.cookie).toBe(`platform-cohort=${first}; Path=/; Max-Age=31536000; SameSite=Lax`);
    // The browser sends back the pair alone, among its other cookies.
    expect(browserCohort({ cookie: `session=x; platform-cohort=${first}; loggedIn=yes` }, none)).toBe(first);
    const junk = { cookie: 'platform-cohort=junk' };
    expect(browserCohort(junk, none)).toBeLessThan(100);
    expect(junk.cookie).toMatch(/^platform-cohort=\d{1,2}; /);
  });

  it('moves a cohort kept in localStorage by an earlier shell into the cookie, so the browser keeps its side', () => {
    const jar = { cookie: '' };
    expect(browserCohort(jar, { getItem: (key) => (key === 'platform-cohort' ? '7' : null) })).toBe(7);
    expect(jar.cookie).toMatch(/^platform-cohort=7; /);
    expect(browserCohort(jar, { getItem: () => '150' })).toBe(7);
  });
});

describe('resolveRemotes', () => {
  afterEach(() => vi.unstubAllGlobals());
  const config: RuntimeConfig = {
    apiOrigin: 'http://api.test',
    filesOrigin: 'http://api.test',
    liveUrl: 'ws://api.test/mqtt',
    remotes: configured,
  };

  it('uses the configured remotes without a discovery document, and when it cannot be read', async () => {
    expect((await resolveRemotes(config, null)).remotes).toEqual(configured);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect((await resolveRemotes({ ...config, discoveryUrl: DOC_URL }, null)).remotes).toEqual(configured);
  });

  it("ignores a tester's ?version unless the deployment allows overrides", async () => {
    const listed: DiscoveryDocument = {
      remotes: { header: { ...doc.remotes.header, versions: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] } },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(listed)),
    );
    window.history.pushState({}, '', '/?version=header@bbbbbbbbbbbb');
    document.cookie = 'platform-cohort=99; Path=/';
    expect((await resolveRemotes({ ...config, discoveryUrl: DOC_URL }, null)).remotes.header).toBe(
      'http://releases.test/header/aaaaaaaaaaaa/mf-manifest.json',
    );
    expect(
      (await resolveRemotes({ ...config, discoveryUrl: DOC_URL, allowVersionOverride: true }, null)).remotes.header,
    ).toBe('http://releases.test/header/bbbbbbbbbbbb/mf-manifest.json');
    window.history.pushState({}, '', '/');
    window.sessionStorage.clear();
  });

  it('reads the document fresh when the page does not carry it, with the manifests it holds', async () => {
    const manifest = { id: 'media', remoteEntry: { name: 'remoteEntry.js' } };
    const fetchMock = vi.fn(async () =>
      Response.json({ ...doc, manifests: { 'media/cccccccccccc/mf-manifest.json': manifest } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { remotes, manifests } = await resolveRemotes({ ...config, discoveryUrl: DOC_URL }, null);
    expect(remotes.media).toBe('http://releases.test/media/cccccccccccc/mf-manifest.json');
    expect(manifests.get(remotes.media)).toEqual(manifest);
    expect(fetchMock).toHaveBeenCalledWith(DOC_URL, { cache: 'no-store' });
  });

  it('takes the document and the manifests the server composed into the page, and fetches nothing', async () => {
    const fetchMock = vi.fn(async () => new Response('not asked', { status: 500 }));
    vi.stubGlobal('fetch', fetchMock);
    document.cookie = 'platform-cohort=99; Path=/';
    const live = { id: 'header@aaaaaaaaaaaa' };
    const account = { id: 'account' };
    const composed = {
      config: null,
      discovery: { ...doc, manifests: { 'header/aaaaaaaaaaaa/mf-manifest.json': live } },
      manifests: { account },
    };
    const { remotes, manifests } = await resolveRemotes({ ...config, discoveryUrl: DOC_URL }, composed);
    expect(remotes.header).toBe('http://releases.test/header/aaaaaaaaaaaa/mf-manifest.json');
    expect(manifests.get(remotes.header)).toEqual(live);
    expect(manifests.get(configured.account)).toEqual(account);
    expect(manifests.has(configured.media)).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches the document when the page carries none (its store was down when the page was composed)', async () => {
    const fetchMock = vi.fn(async () => Response.json(doc));
    vi.stubGlobal('fetch', fetchMock);
    const { remotes } = await resolveRemotes(
      { ...config, discoveryUrl: DOC_URL },
      { config: null, discovery: null, manifests: {} },
    );
    expect(remotes.media).toBe('http://releases.test/media/cccccccccccc/mf-manifest.json');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe("testers' versions", () => {
  it('keeps the asked versions for the tab, takes only remote@version shapes, and forgets them on ?version=clear', () => {
    const tab = memory();
    expect(
      requestedOverrides('?version=header@bbbbbbbbbbbb&version=nope@cccccccccccc&version=media@http://evil', tab),
    ).toEqual({ header: 'bbbbbbbbbbbb' });
    expect(requestedOverrides('', tab)).toEqual({ header: 'bbbbbbbbbbbb' });
    expect(requestedOverrides('?version=clear', tab)).toEqual({});
    expect(requestedOverrides('', tab)).toEqual({});
  });

  it("loads only versions the store lists, from the store's own folder", () => {
    const withVersions: DiscoveryDocument = {
      remotes: { ...doc.remotes, header: { ...doc.remotes.header, versions: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] } },
    };
    const { remotes: manifests, used } = chooseRemotes(
      { remotes: configured, discoveryUrl: DOC_URL, allowVersionOverride: true },
      withVersions,
      99,
      { header: 'bbbbbbbbbbbb', media: 'dddddddddddd' },
    );
    expect(used).toEqual({ header: 'bbbbbbbbbbbb' });
    expect(manifests.header).toBe('http://releases.test/header/bbbbbbbbbbbb/mf-manifest.json');
    expect(manifests.media).toBe('http://releases.test/media/cccccccccccc/mf-manifest.json');
  });
});

describe("a developer's local build (issue 27, item 7)", () => {
  it("loads header@local from the platform table's development port on loopback, only where the deployment allows it", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const requested = requestedOverrides(
      '?version=header@local&version=media@local:9999&version=account@http://evil.test',
      memory(),
    );
    // Only the bare word: no port, host or URL from the address survives.
    expect(requested).toEqual({ header: 'local' });
    const off = chooseRemotes({ remotes: configured, allowVersionOverride: true }, null, null, requested);
    expect(off.used).toEqual({});
    expect(off.remotes.header).toBe(configured.header);
    const deployed = { ...configured, header: 'https://cdn.example/header/aaaaaaaaaaaa/mf-manifest.json' };
    const on = chooseRemotes({ remotes: deployed, allowLocalRemotes: true }, null, null, requested);
    expect(on.used).toEqual({ header: 'local' });
    expect(on.remotes.header).toBe('http://localhost:3001/mf-manifest.json');
  });

  it('applies without a release store, in the tab that asked only', async () => {
    const config: RuntimeConfig = {
      apiOrigin: 'http://api.test',
      filesOrigin: 'http://api.test',
      liveUrl: 'ws://api.test/mqtt',
      remotes: { ...configured, header: 'https://cdn.example/header/mf-manifest.json' },
      allowLocalRemotes: true,
    };
    window.history.pushState({}, '', '/?version=header@local');
    expect((await resolveRemotes(config, null)).remotes.header).toBe('http://localhost:3001/mf-manifest.json');
    window.history.pushState({}, '', '/');
    window.sessionStorage.clear();
    expect((await resolveRemotes(config, null)).remotes.header).toBe('https://cdn.example/header/mf-manifest.json');
  });

  it("is never rendered on the server (issue 38, item 5): its slot is the browser's, the others render as configured", () => {
    const config: RuntimeConfig = {
      apiOrigin: 'http://api.test',
      filesOrigin: 'http://api.test',
      liveUrl: 'ws://api.test/mqtt',
      remotes: configured,
      allowLocalRemotes: true,
    };
    const composed = { config, discovery: null, manifests: {} };
    const versions = versionsForRequest(config, composed, '', '?version=header@local');
    expect([...versions.undecided]).toEqual(['header']);
    expect(versions.remotes.media).toBe(configured.media);
    expect([...versionsForRequest(config, composed, '', '').undecided]).toEqual([]);
  });
});

describe('rollbacks reaching open pages (issue 27, item 6)', () => {
  const inUse = (version: string) => ({ header: `http://releases.test/header/${version}/mf-manifest.json` });

  it('switches a remote whose version in use was rolled back to what the page would get now', () => {
    const rolled: DiscoveryDocument = {
      remotes: { header: { live: doc.remotes.header?.live, rolledBack: ['bbbbbbbbbbbb'] } },
    };
    expect(rolledBackSwitches(rolled, DOC_URL, inUse('bbbbbbbbbbbb'), configured, 5, {})).toEqual({
      header: 'http://releases.test/header/aaaaaaaaaaaa/mf-manifest.json',
    });
  });

  it('keeps a version superseded by an ordinary release, and one a tester asked for', () => {
    const released: DiscoveryDocument = {
      remotes: { header: { live: { version: 'cccccccccccc', manifest: 'header/cccccccccccc/mf-manifest.json' } } },
    };
    expect(rolledBackSwitches(released, DOC_URL, inUse('aaaaaaaaaaaa'), configured, 5, {})).toEqual({});
    const rolled: DiscoveryDocument = {
      remotes: { header: { ...released.remotes.header, rolledBack: ['aaaaaaaaaaaa'] } },
    };
    expect(
      rolledBackSwitches(rolled, DOC_URL, inUse('aaaaaaaaaaaa'), configured, 5, { header: 'aaaaaaaaaaaa' }),
    ).toEqual({});
    // A remote not from the store (a configured URL) has no version to roll back.
    expect(rolledBackSwitches(rolled, DOC_URL, { header: configured.header }, configured, 5, {})).toEqual({});
  });
});

describe("a page's server (issue 28: it renders the versions the browser will take)", () => {
  const config = { remotes: configured, discoveryUrl: DOC_URL, allowVersionOverride: true } as RuntimeConfig;
  const composed = { config, discovery: doc, manifests: {} };
  const stored = (name: string, version: string) => `http://releases.test/${name}/${version}/mf-manifest.json`;

  it("takes the canary for a cohort cookie in its share, live for one outside it, as the browser's cohort picks", () => {
    const inShare = versionsForRequest(config, composed, 'a=1; platform-cohort=7', '');
    expect(inShare.remotes.header).toBe(stored('header', 'bbbbbbbbbbbb'));
    expect(inShare.undecided.size).toBe(0);
    expect(versionsForRequest(config, composed, 'platform-cohort=20', '').remotes.header).toBe(
      stored('header', 'aaaaaaaaaaaa'),
    );
    expect(inShare.remotes.media).toBe(stored('media', 'cccccccccccc'));
    expect(inShare.remotes.account).toBe(configured.account);
  });

  it('leaves a remote with a canary to the browser when the request has no cohort yet (one kept in localStorage must stay)', () => {
    const fresh = versionsForRequest(config, composed, '', '');
    expect([...fresh.undecided]).toEqual(['header']);
    // A cookie that is not a cohort is none.
    expect([...versionsForRequest(config, composed, 'platform-cohort=abc', '').undecided]).toEqual(['header']);
  });

  it("renders a tester's stored version from the address, where the deployment allows it", () => {
    const asked = versionsForRequest(config, composed, 'platform-cohort=50', '?version=media@dddddddddddd');
    // Not in the store: live.
    expect(asked.remotes.media).toBe(stored('media', 'cccccccccccc'));
    const listed = { ...doc, remotes: { ...doc.remotes, media: { ...doc.remotes.media, versions: ['dddddddddddd'] } } };
    const withVersion = versionsForRequest(
      config,
      { ...composed, discovery: listed },
      '',
      '?version=media@dddddddddddd',
    );
    expect(withVersion.remotes.media).toBe(stored('media', 'dddddddddddd'));
    const locked = { ...config, allowVersionOverride: false };
    expect(
      versionsForRequest(locked, { ...composed, discovery: listed }, '', '?version=media@dddddddddddd').remotes.media,
    ).toBe(stored('media', 'cccccccccccc'));
  });

  it('leaves every remote to the browser when the store could not be composed into the page', () => {
    const none = versionsForRequest(config, { ...composed, discovery: null }, 'platform-cohort=1', '');
    expect(none.undecided.size).toBe(4);
  });
});
