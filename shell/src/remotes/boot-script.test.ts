import { afterEach, describe, expect, it } from 'vitest';
import { bootScript } from 'page-server/boot-script';
import { COMPOSITION_ELEMENT_ID, pageAt, REMOTE_NAMES, type RemoteName } from '@marketplace/shared/platform';
import type { RuntimeConfig } from '@marketplace/shared';
import { COHORT_COOKIE, resolveRemotes } from './discovery.js';

// The page's inline script hints the files main.js will load: the same version of each remote
// (discovery.ts) and the same page (pageAt). It is run here as the browser runs it.

const config: RuntimeConfig = {
  apiOrigin: 'http://api.test',
  filesOrigin: 'http://api.test',
  liveUrl: 'ws://api.test/mqtt',
  remotes: Object.fromEntries(REMOTE_NAMES.map((name) => [name, `http://${name}.test/mf-manifest.json`])) as Record<
    RemoteName,
    string
  >,
  discoveryUrl: 'http://store.test/releases/discovery.json',
};
const manifest = (name: string, modules: string[]) => ({
  id: name,
  name,
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
  exposes: modules.map((module) => ({
    name: module,
    assets: {
      js: { sync: [`${module}.0000aaaa.js`, `__federation_expose_${module}.js`], async: ['later.js'] },
      css: { sync: [], async: [] },
    },
  })),
});
const ALL_MODULES = [
  'Header',
  'EventsPage',
  'EventPage',
  'CartPage',
  'EventOrderPage',
  'LoginPage',
  'CreatorPage',
  'FaqPage',
  'LegalPage',
  'ProfilePage',
];
const composition = {
  config,
  discovery: {
    remotes: {
      header: {
        live: { version: 'aaaaaaaaaaaa', manifest: 'header/aaaaaaaaaaaa/mf-manifest.json' },
        canary: { version: 'bbbbbbbbbbbb', manifest: 'header/bbbbbbbbbbbb/mf-manifest.json', percent: 30 },
      },
    },
    manifests: {
      'header/aaaaaaaaaaaa/mf-manifest.json': manifest('header', ['Header']),
      'header/bbbbbbbbbbbb/mf-manifest.json': manifest('header', ['Header']),
    },
  },
  manifests: Object.fromEntries(REMOTE_NAMES.map((name) => [name, manifest(name, ALL_MODULES)])),
};

/** The browser's kept cohort, in its cookie (or none). */
function keepCohort(cohort: number | null): void {
  document.cookie =
    cohort === null ? `${COHORT_COOKIE}=; Path=/; Max-Age=0` : `${COHORT_COOKIE}=${cohort}; Path=/; SameSite=Lax`;
}

/** The hint elements the script adds on `path`, for a browser in `cohort`, below a head holding `head`. */
function hintElementsOn(
  path: string,
  cohort: number | null,
  head = '',
  composed: object = composition,
): HTMLLinkElement[] {
  window.history.pushState({}, '', path);
  keepCohort(cohort);
  document.head.innerHTML = head;
  document.body.innerHTML = `<script type="application/json" id="${COMPOSITION_ELEMENT_ID}">${JSON.stringify(composed)}</script>`;
  new Function(bootScript())();
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')];
}

/** The hints the script adds on `path`, for a browser in `cohort`. */
const hintsOn = (path: string, cohort: number | null) => hintElementsOn(path, cohort).map((link) => link.href);

/** What main.js loads for a remote's module: its entry and the module's first chunks, from the manifest it resolves. */
async function expected(remote: RemoteName, module: string): Promise<string[]> {
  const { remotes } = await resolveRemotes(config, {
    config,
    discovery: composition.discovery,
    manifests: composition.manifests,
  });
  const base = remotes[remote];
  return ['remoteEntry.js', `${module}.0000aaaa.js`, `__federation_expose_${module}.js`].map(
    (file) => new URL(file, base).href,
  );
}

afterEach(() => {
  window.history.pushState({}, '', '/');
  window.localStorage.clear();
  keepCohort(null);
});

describe("the page's boot script", () => {
  it.each([
    '/',
    '/events',
    '/event/summer-jazz',
    '/cart',
    '/eventorder/ord-1',
    '/user/login',
    '/user/someone',
    '/faq',
    '/legal/terms-of-service/',
  ])('hints the header and the page main.js will load on %s', async (path) => {
    const page = pageAt(path);
    expect(page).toBeDefined();
    keepCohort(80);
    const want = [
      ...(await expected('header', 'Header')),
      ...(await expected(page?.remote as RemoteName, page?.module ?? '')),
    ];
    expect(hintsOn(path, 80)).toEqual(want);
  });

  it("hints the canary's header to a browser in the canary's share, the live one to the others", async () => {
    keepCohort(10);
    expect(hintsOn('/nowhere', 10)).toEqual(await expected('header', 'Header'));
    expect(hintsOn('/nowhere', 10)[0]).toBe('http://store.test/releases/header/bbbbbbbbbbbb/remoteEntry.js');
    keepCohort(90);
    expect(hintsOn('/nowhere', 90)[0]).toBe('http://store.test/releases/header/aaaaaaaaaaaa/remoteEntry.js');
  });

  it('reads a cohort an earlier shell kept in localStorage, as main.js moves it to the cookie', async () => {
    window.localStorage.setItem(COHORT_COOKIE, '10');
    window.history.pushState({}, '', '/nowhere');
    document.head.innerHTML = '';
    document.body.innerHTML = `<script type="application/json" id="${COMPOSITION_ELEMENT_ID}">${JSON.stringify(composition)}</script>`;
    new Function(bootScript())();
    const hinted = [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => (l as HTMLLinkElement).href);
    expect(hinted[0]).toBe('http://store.test/releases/header/bbbbbbbbbbbb/remoteEntry.js');
    expect(hinted).toEqual(await expected('header', 'Header'));
  });

  it("hints at the page's own scripts' priority: lowered on a page that arrived with its content, the browser's default otherwise", () => {
    const emptyPage = hintElementsOn('/events', 80, '<script defer src="/main.js" fetchpriority="high"></script>');
    expect(emptyPage.length).toBeGreaterThan(0);
    for (const link of emptyPage) expect(link.getAttribute('fetchpriority')).toBeNull();
    const renderedPage = hintElementsOn('/events', 80, '<script defer src="/main.js" fetchpriority="low"></script>');
    expect(renderedPage.map((link) => link.href)).toEqual(emptyPage.map((link) => link.href));
    for (const link of renderedPage) expect(link.getAttribute('fetchpriority')).toBe('low');
  });

  it("hints another origin's scripts in the mode main.js loads them (CORS: their errors carry their stack), the page's own origin's as they are", () => {
    const elsewhere = hintElementsOn('/events', 80);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const link of elsewhere) expect(link.getAttribute('crossorigin')).toBe('anonymous');
    const sameOrigin = {
      ...composition,
      discovery: null,
      config: {
        ...config,
        discoveryUrl: undefined,
        remotes: Object.fromEntries(
          REMOTE_NAMES.map((name) => [name, `${window.location.origin}/${name}/mf-manifest.json`]),
        ),
      },
    };
    const here = hintElementsOn('/events', 80, '', sameOrigin);
    expect(here.map((link) => new URL(link.href).origin)).toEqual(here.map(() => window.location.origin));
    expect(here.length).toBeGreaterThan(0);
    for (const link of here) expect(link.hasAttribute('crossorigin')).toBe(false);
  });

  it('hints nothing on a page its server did not compose', () => {
    document.head.innerHTML = '';
    document.body.innerHTML = `<script type="application/json" id="${COMPOSITION_ELEMENT_ID}">{"config":<!--# include virtual="/runtime-config.json" -->}</script>`;
    new Function(bootScript())();
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
