import { act, createElement, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AFTER_PAINT_SCRIPT_TYPE,
  COMPOSITION_ELEMENT_ID,
  PAGE_STARTED_EVENT,
  pageAt,
  resetPageComposition,
  START_AT_LATEST_MS,
  REMOTE_NAMES,
  type RemoteName,
} from '@marketplace/shared/platform';
import type { RuntimeConfig } from '@marketplace/shared';
import { COHORT_COOKIE } from '../remotes/cohort.js';
import { resolveRemotes } from '../remotes/discovery.js';
import { boot } from './boot.js';

/** Runs the boot script on the page as it now is, as the browser runs it while parsing the page. */
function runBoot(): void {
  resetPageComposition();
  boot();
}

// The page's inline script hints the files main.js will load: the same version of each remote
// (discovery.ts) and the same page (pageAt).

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
  runBoot();
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
    runBoot();
    const hinted = [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => (l as HTMLLinkElement).href);
    expect(hinted[0]).toBe('http://store.test/releases/header/bbbbbbbbbbbb/remoteEntry.js');
    expect(hinted).toEqual(await expected('header', 'Header'));
  });

  /** A field whose text is the app's state (the header's search), a button that reads it, and a note nobody types into. */
  function Search({ log }: { log: string[] }) {
    const [text, setText] = useState('');
    return createElement(
      'div',
      null,
      createElement('input', { 'aria-label': 'Search', value: text, onChange: (e) => setText(e.target.value) }),
      createElement('button', { type: 'button', onClick: () => log.push(`search "${text}"`) }, 'Search'),
      createElement('output', null, text),
      createElement('textarea', { 'aria-label': 'Note', defaultValue: 'kept' }),
    );
  }

  /** A rendered page with Search, 'Jazz' typed into its field before main.js ran (the browser says so with an input event), the caret moved back. */
  function typedBeforeStart() {
    hintElementsOn('/events', 80, `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-src="/main.js"></script>`);
    const root = document.createElement('div');
    root.innerHTML = renderToString(createElement(Search, { log: [] }));
    document.body.append(root);
    const field = root.querySelector('input') as HTMLInputElement;
    field.focus();
    field.value = 'Jazz';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.setSelectionRange(2, 2);
    return { root, field };
  }

  describe('on a page that arrived with its content', () => {
    const rendered = `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-src="/main.js"></script>`;
    /** The scripts the boot script started (the placeholder is not one: it has no src). */
    const started = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[src]')];
    let frames: FrameRequestCallback[] = [];
    /** Begins `n` frames, each running the callbacks asked for before it. */
    const drawFrames = (n: number) => {
      for (let i = 0; i < n; i++) {
        const waiting = frames;
        frames = [];
        for (const callback of waiting) callback(performance.now());
      }
    };
    /** The paints the browser has reported, and its observers of paints. */
    let paints: string[] = [];
    let paintObservers: PerformanceObserverCallback[] = [];
    const reportPaint = (name: string) => {
      paints.push(name);
      const list = {
        getEntriesByName: (n: string) => (n === name ? [{ name }] : []),
      } as unknown as PerformanceObserverEntryList;
      for (const callback of paintObservers) callback(list, { disconnect: () => undefined } as PerformanceObserver);
    };

    beforeEach(() => {
      frames = [];
      paints = [];
      paintObservers = [];
      vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
      vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
      vi.spyOn(performance, 'getEntriesByName').mockImplementation((name: string) =>
        paints.filter((p) => p === name).map(() => ({ name }) as PerformanceEntry),
      );
      vi.stubGlobal(
        'PerformanceObserver',
        class {
          constructor(private readonly callback: PerformanceObserverCallback) {}
          observe() {
            paintObservers.push(this.callback);
          }
        },
      );
      // Still being parsed: the boot script runs before the page's load event.
      vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    });
    afterEach(() => {
      // The app takes each page over: the scripts run here stop holding presses for the next test.
      document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      vi.useRealTimers();
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    });

    it('has main.js and its hints downloaded once the page has painted content, and runs main.js only once its pictures are on the screen too: after its load event, three frames begun, then a task', async () => {
      const emptyPageHints = hintElementsOn('/events', 80, '<script defer src="/main.js"></script>').map((l) => l.href);
      expect(emptyPageHints.length).toBeGreaterThan(0);

      expect(hintElementsOn('/events', 80, rendered), 'nothing before the first paint').toEqual([]);
      reportPaint('first-paint');
      expect(document.head.querySelectorAll('link'), 'a paint without content').toHaveLength(0);
      reportPaint('first-contentful-paint');
      // Downloaded at low priority while the page's pictures come in: main.js first, then the hints.
      const hinted = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')];
      expect(hinted.map((l) => l.href)).toEqual([new URL('/main.js', window.location.href).href, ...emptyPageHints]);
      for (const link of hinted) expect(link.getAttribute('fetchpriority')).toBe('low');
      drawFrames(3);
      await vi.advanceTimersByTimeAsync(10);
      expect(started(), 'not before its load event').toEqual([]);

      window.dispatchEvent(new Event('load'));
      await vi.advanceTimersByTimeAsync(0);
      drawFrames(2);
      await vi.advanceTimersByTimeAsync(0);
      expect(started(), 'two frames begun: the painted one may not be on the screen yet').toEqual([]);
      drawFrames(1);
      expect(started(), 'in the frame itself').toEqual([]);
      await vi.advanceTimersByTimeAsync(0);

      const [main, ...others] = started();
      expect(others).toEqual([]);
      expect(main?.getAttribute('src')).toBe('/main.js');
      // In order, as the deferred script it stands for.
      expect(main?.async).toBe(false);
      // Once: the latest start does not start it again.
      vi.advanceTimersByTime(START_AT_LATEST_MS);
      expect(started()).toHaveLength(1);
    });

    it("has the shell's chunks its server left unasked (data-hint) downloaded with main.js after the first paint, and never runs them itself", async () => {
      const remoteHints = hintElementsOn('/events', 80, '<script defer src="/main.js"></script>').map((l) => l.href);
      const chunk = `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-hint="/src_bootstrap_tsx.0000aaaa.js"></script>`;
      expect(hintElementsOn('/events', 80, rendered + chunk), 'nothing before the first paint').toEqual([]);
      reportPaint('first-contentful-paint');
      const hinted = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')];
      const here = (path: string) => new URL(path, window.location.href).href;
      expect(hinted.map((l) => l.href)).toEqual([
        here('/main.js'),
        here('/src_bootstrap_tsx.0000aaaa.js'),
        ...remoteHints,
      ]);
      for (const link of hinted) expect(link.getAttribute('fetchpriority')).toBe('low');
      window.dispatchEvent(new Event('load'));
      await vi.advanceTimersByTimeAsync(0);
      drawFrames(3);
      await vi.advanceTimersByTimeAsync(0);
      expect(started().map((script) => script.getAttribute('src'))).toEqual(['/main.js']);
    });

    it('starts at once after the frames when the page had painted its content before its load event', async () => {
      paints.push('first-contentful-paint');
      hintElementsOn('/events', 80, rendered);
      window.dispatchEvent(new Event('load'));
      await vi.advanceTimersByTimeAsync(0);
      drawFrames(3);
      await vi.advanceTimersByTimeAsync(0);
      expect(started().map((s) => s.getAttribute('src'))).toEqual(['/main.js']);
    });

    it('holds a press on a button and a form sent until the app has taken the page over, then does each once; a link is left to the browser', () => {
      hintElementsOn('/user/login', null, rendered);
      document.body.insertAdjacentHTML(
        'beforeend',
        `<form id="login"><input name="login" value="olga"><button id="send">Log in</button></form>
         <button id="contact" type="button"><span>Contact Us</span></button><a id="faq" href="/faq">FAQ</a>`,
      );
      const form = document.getElementById('login') as HTMLFormElement;
      // The page's own listeners (React's are on its root, below the document).
      const pressed: string[] = [];
      document.body.addEventListener('click', (e) => pressed.push(`click ${(e.target as Element).id || 'inner'}`));
      form.addEventListener('submit', (e) => {
        pressed.push(`submit ${(e.submitter as Element | null)?.id ?? 'none'}`);
        e.preventDefault();
      });
      const faq = new MouseEvent('click', { bubbles: true, cancelable: true });
      document.getElementById('faq')?.dispatchEvent(faq);
      expect(faq.defaultPrevented, 'a link goes to its page').toBe(false);

      const contact = () => {
        const press = new MouseEvent('click', { bubbles: true, cancelable: true });
        document.querySelector('#contact span')?.dispatchEvent(press);
        return press.defaultPrevented;
      };
      expect(contact()).toBe(true);
      expect(contact(), 'pressed again while waiting').toBe(true);
      form.requestSubmit(document.getElementById('send') as HTMLButtonElement);
      // Held: nothing of the page saw them (it would handle them a second time on the replay).
      expect(pressed).toEqual(['click faq']);

      pressed.length = 0;
      document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      expect(pressed).toEqual(['click contact', 'submit send']);
      // Held once: after the start the page's own handlers have them.
      pressed.length = 0;
      document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      document.getElementById('contact')?.click();
      expect(pressed).toEqual(['click contact']);
    });

    it('tells the app the text typed into its fields before it took the page over, then does the presses held', async () => {
      /** A field whose text is the app's state (the header's search), and a button that reads it. */
      const { root, field } = typedBeforeStart();
      // Changed by no one typing: not the visitor's to hand over.
      const note = root.querySelector('textarea') as HTMLTextAreaElement;
      note.value = 'set by a script';
      root.querySelector('button')?.click();
      const log: string[] = [];
      const hydrated = await act(async () => hydrateRoot(root, createElement(Search, { log })));
      expect(field.value, 'the text stays on the screen').toBe('Jazz');
      // A render of the app's before it says it has the page puts its state's text in the field.
      const renderedLog: string[] = [];
      await act(async () => hydrated.render(createElement(Search, { log: renderedLog })));
      expect(field.value).toBe('');

      const inputs: string[] = [];
      root.addEventListener('input', (e) => inputs.push((e.target as Element).tagName));
      await act(async () => {
        document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      });
      expect(field.value).toBe('Jazz');
      expect([field.selectionStart, field.selectionEnd], 'the caret after the text put back').toEqual([4, 4]);
      expect(renderedLog, "the held press done with the app's state knowing the text").toEqual(['search "Jazz"']);
      expect(inputs, 'only the field typed into').toEqual(['INPUT']);
      hydrated.unmount();
      root.remove();
    });

    it('hands the text of a field typed into to the app, leaving the caret where the visitor put it', async () => {
      const { root, field } = typedBeforeStart();
      const hydrated = await act(async () => hydrateRoot(root, createElement(Search, { log: [] })));
      await act(async () => {
        document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      });
      expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(['Jazz', 2, 2]);
      expect(root.querySelector('output')?.textContent, "the app's state").toBe('Jazz');
      hydrated.unmount();
      root.remove();
    });

    it('gives presses back to the browser, dropping the held ones, when main.js cannot be had', async () => {
      hintElementsOn('/events', 80, rendered);
      document.body.insertAdjacentHTML('beforeend', '<button id="contact" type="button">Contact Us</button>');
      const pressed: string[] = [];
      document.body.addEventListener('click', () => pressed.push('click'));
      document.getElementById('contact')?.click();
      await vi.advanceTimersByTimeAsync(START_AT_LATEST_MS);
      started()[0]?.dispatchEvent(new Event('error'));
      expect(pressed).toEqual([]);
      document.getElementById('contact')?.click();
      expect(pressed).toEqual(['click']);
      document.dispatchEvent(new Event(PAGE_STARTED_EVENT));
      expect(pressed, 'the dropped press is not done').toEqual(['click']);
    });

    it("starts them at the latest START_AT_LATEST_MS after navigation when the page's pictures never finish, or no frame is drawn", () => {
      hintElementsOn('/events', 80, rendered);
      vi.advanceTimersByTime(START_AT_LATEST_MS - 1 - performance.now());
      expect(started()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(started().map((s) => s.getAttribute('src'))).toEqual(['/main.js']);
    });
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

  it("hints the header and the page where the browser refuses storage, on a deployment that reads testers' versions", async () => {
    // A cohort in the cookie (not storage): live's header, for main.js and the script alike.
    keepCohort(80);
    const want = [...(await expected('header', 'Header')), ...(await expected('media', 'EventsPage'))];
    const refuse = () => {
      throw new DOMException('storage is disabled', 'SecurityError');
    };
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(refuse);
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(refuse);
    try {
      const testing = { ...composition, config: { ...config, allowVersionOverride: true } };
      const hinted = hintElementsOn('/events', 80, '', testing).map((link) => link.href);
      expect(hinted).toEqual(want);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('hints nothing on a page its server did not compose', () => {
    document.head.innerHTML = '';
    document.body.innerHTML = `<script type="application/json" id="${COMPOSITION_ELEMENT_ID}">{"config":<!--# include virtual="/runtime-config.json" -->}</script>`;
    runBoot();
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
