import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, rootErrorHandlers, stateScript } from '@marketplace/shared';
import { TEST_CONFIG } from '@marketplace/shared/testing';
import { BEACON_FRAME_CHARS, reportPageError, type Beacon, type PageToken } from '@marketplace/shared/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Loader } from '../remotes/registry.js';
import { RemoteSlot } from '../remotes/RemoteSlot.js';
import {
  beaconErrorOf,
  frameOfError,
  frameOfLocation,
  originalError,
  ownerOfError,
  ownerOfNode,
  ownerOfStack,
} from './attribution.js';
import { Collector, MAX_BEACONS_PER_LOAD } from './collector.js';
import { reportRemoteUse, requestPageToken, resetTelemetry, startTelemetry } from './telemetry.js';

const HEADER_BASE = 'http://releases.test/header/0123456789ab/';
vi.mock('../remotes/federation.js', () => ({
  entriesInUse: () => ({
    header: 'http://releases.test/header/0123456789ab/mf-manifest.json',
    media: 'http://localhost:3002/mf-manifest.json',
  }),
}));

/** This load's token, as its page server answers it: the header's store version and the media's development build. */
const PAGE: PageToken = {
  load: '7d1c3c52-5f0e-4a8e-9b1d-2c3e4f5a6b7c',
  token: 'signed-by-the-page-server',
  versions: { header: ['0123456789ab', 'aaaaaaaaaaaa'], media: ['unreleased'] },
};
/** Starts the page's beacon with that token, once it is in (the page asks for it when it starts). */
async function started(
  config: Parameters<typeof startTelemetry>[0],
  random?: () => number,
  page: PageToken | null = PAGE,
) {
  const token = Promise.resolve(page);
  startTelemetry(config, random, () => token);
  // The beacon took the token in a callback it chained before this await's.
  await token;
}

const beacons: { url: string; beacon: Beacon }[] = [];
const hide = () => {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
};

beforeEach(() => {
  beacons.length = 0;
  resetTelemetry();
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: string) => beacons.push({ url, beacon: JSON.parse(body) as Beacon }) > 0,
  });
});
afterEach(() => vi.useRealTimers());

const slot = (loader: Loader, timeoutMs = 1000, options: Parameters<typeof render>[1] = {}) =>
  render(
    <MemoryRouter>
      <RemoteSlot remote="header" module="Header" label="The header" props={{}} loader={loader} timeoutMs={timeoutMs} />
    </MemoryRouter>,
    options,
  );

/** A root as the page's are (mountApp): with the one handler of its errors (act() takes uncaught ones itself). */
const AS_THE_PAGE = {
  onCaughtError: rootErrorHandlers.onCaughtError,
  onRecoverableError: rootErrorHandlers.onRecoverableError,
};

/** An error thrown in the header's files, as its stack says in the browser. */
function headerError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}\n    at HeaderBar (${HEADER_BASE}src_header_HeaderBar_tsx.1a2b3c4d.js:1:200)`;
  return error;
}
/** Where headerError's errors are thrown, as the beacon says it: the path in the store, the line and column. */
const HEADER_FRAME = '/header/0123456789ab/src_header_HeaderBar_tsx.1a2b3c4d.js:1:200';

describe("the page's real-user beacon", () => {
  it("sends, when the page is hidden, the version of the remote a slot rendered, to the API's beacon path", async () => {
    await started({ ...TEST_CONFIG, rumSample: 1 });
    slot(async () => ({ default: () => <p>header</p> }) as never);
    await screen.findByText('header');
    hide();
    expect(beacons).toHaveLength(1);
    expect(beacons[0]?.url).toBe(`${TEST_CONFIG.apiOrigin}/rum`);
    expect(beacons[0]?.beacon).toMatchObject({ versions: { header: '0123456789ab' }, errors: [] });
    // The load's id and token from its page server.
    expect(beacons[0]?.beacon).toMatchObject({ load: PAGE.load, token: PAGE.token });
    expect(beacons[0]?.beacon.final).toBeUndefined();
    // Nothing new: hiding again sends nothing.
    hide();
    expect(beacons).toHaveLength(1);
  });

  it('names the slot fallbacks by kind (load failure, timeout, render error) against the version tried', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await started({ ...TEST_CONFIG, rumSample: 1 });
    // A failed load's error may name the remote's files (its entry script): still no frame, its code never ran.
    const failed = slot(() => Promise.reject(headerError('manifest answered 500')));
    await screen.findByRole('alert');
    failed.unmount();
    vi.useFakeTimers();
    const slow = slot(() => new Promise(() => undefined), 50);
    await act(async () => vi.advanceTimersByTime(50));
    slow.unmount();
    vi.useRealTimers();
    slot(
      async () =>
        ({
          default: () => {
            throw headerError('broken build');
          },
        }) as never,
    );
    await screen.findByRole('alert');
    hide();
    const [sent] = beacons;
    expect(sent?.beacon.versions).toEqual({ header: '0123456789ab' });
    expect(sent?.beacon.errors.map((e) => [e.owner, e.kind, e.frame])).toEqual([
      ['header', 'load', undefined],
      ['header', 'timeout', undefined],
      ['header', 'render', HEADER_FRAME],
    ]);
    expect(sent?.beacon.errors[0]?.message).toBe('Error: manifest answered 500');
  });

  it('attributes an uncaught error to the remote whose files its stack runs through, else to the shell', async () => {
    await started({ ...TEST_CONFIG, rumSample: 1 });
    const inHeader = new TypeError('x is undefined');
    inHeader.stack = `TypeError: x is undefined\n    at render (${HEADER_BASE}__federation_expose_Header.1a2b3c4d.js:1:200)`;
    window.dispatchEvent(new ErrorEvent('error', { error: inHeader, message: inHeader.message }));
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('shell bug'), message: 'shell bug' }));
    hide();
    expect(beacons[0]?.beacon.errors).toEqual([
      {
        owner: 'header',
        kind: 'uncaught',
        message: 'TypeError: x is undefined',
        frame: '/header/0123456789ab/__federation_expose_Header.1a2b3c4d.js:1:200',
      },
      { owner: 'shell', kind: 'uncaught', message: 'Error: shell bug' },
    ]);
  });

  it('counts a render React recovered from (it rendered again, the page is whole) once, against the remote the original error runs through', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await started({ ...TEST_CONFIG, rumSample: 1 });
    let renders = 0;
    slot(
      async () =>
        ({
          default: () => {
            renders += 1;
            if (renders === 1) throw headerError('flaky header');
            return <p>header</p>;
          },
        }) as never,
      1000,
      AS_THE_PAGE,
    );
    await screen.findByText('header');
    hide();
    expect(beacons[0]?.beacon.versions).toEqual({ header: '0123456789ab' });
    // React's wrapper carries React's stack (the shell's files): its cause is the header's.
    expect(beacons[0]?.beacon.errors).toEqual([
      { owner: 'header', kind: 'render', message: 'Error: flaky header', frame: HEADER_FRAME },
    ]);
  });

  it("counts a render error a slot's boundary caught once, though the root's handler sees it too", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await started({ ...TEST_CONFIG, rumSample: 1 });
    slot(
      async () =>
        ({
          default: () => {
            throw headerError('broken header');
          },
        }) as never,
      1000,
      AS_THE_PAGE,
    );
    await screen.findByRole('alert');
    hide();
    expect(beacons[0]?.beacon.errors).toEqual([
      { owner: 'header', kind: 'render', message: 'Error: broken header', frame: HEADER_FRAME },
    ]);
  });

  it("names the page server's render the page came from in each beacon, and none for a page rendered in the browser", async () => {
    const render = '0f8fad5b-d9cb-469f-a165-70867728950e';
    document.body.innerHTML = stateScript({ queries: { mutations: [], queries: [] }, slots: {}, render });
    try {
      await started({ ...TEST_CONFIG, rumSample: 1 });
      reportRemoteUse('header');
      hide();
      reportPageError({ kind: 'error', error: headerError('later') });
      hide();
      expect(beacons.map(({ beacon }) => beacon.render)).toEqual([render, render]);
    } finally {
      document.body.innerHTML = '';
    }
    resetTelemetry();
    await started({ ...TEST_CONFIG, rumSample: 1 });
    reportRemoteUse('header');
    hide();
    expect(beacons.at(-1)?.beacon).not.toHaveProperty('render');
  });

  it("sends what failed before it started, the page's server's failures with it, against the versions in use", async () => {
    reportPageError({ kind: 'error', error: headerError('while loading') });
    reportPageError({ kind: 'server', remote: 'header', message: 'Error: threw on the server' });
    // A part the server could not finish, rendered afresh here: the server's own report counts it.
    reportPageError({
      kind: 'recoverable',
      error: new Error('Minified React error #419; visit https://react.dev/errors/419'),
    });
    await started({ ...TEST_CONFIG, rumSample: 1 });
    hide();
    expect(beacons[0]?.beacon.versions).toEqual({ header: '0123456789ab' });
    expect(beacons[0]?.beacon.errors).toEqual([
      { owner: 'header', kind: 'uncaught', message: 'Error: while loading', frame: HEADER_FRAME },
      // The server's report has no stack: no frame.
      { owner: 'header', kind: 'render', message: 'Error: threw on the server' },
    ]);
  });

  it('sends nothing from a page load outside the sample, or when collection is off', async () => {
    await started({ ...TEST_CONFIG, rumSample: 0.1 }, () => 0.5);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('x'), message: 'x' }));
    hide();
    await started({ ...TEST_CONFIG, rumSample: 0 }, () => 0);
    hide();
    expect(beacons).toEqual([]);
    await started({ ...TEST_CONFIG, rumSample: 0.1 }, () => 0.05);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('x'), message: 'x' }));
    hide();
    expect(beacons).toHaveLength(1);
  });

  it('sends nothing from a page its server gave no token (a development server), which the API would refuse', async () => {
    await started({ ...TEST_CONFIG, rumSample: 1 }, undefined, null);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('x'), message: 'x' }));
    hide();
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(beacons).toEqual([]);
  });

  it('waits for the token: what happened before it is sent once it is in', async () => {
    let answer: (page: PageToken) => void = () => undefined;
    const token = new Promise<PageToken>((resolve) => (answer = resolve));
    startTelemetry({ ...TEST_CONFIG, rumSample: 1 }, undefined, () => token);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('early'), message: 'early' }));
    hide();
    expect(beacons).toEqual([]);
    answer(PAGE);
    await token;
    hide();
    expect(beacons.map((b) => b.beacon.errors.map((e) => e.message))).toEqual([['Error: early']]);
  });

  it('leaves out a remote used at a version its token does not sign; a final beacon when the page goes away, after what its last hiding reports, none after it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await started({ ...TEST_CONFIG, rumSample: 1 }, undefined, { ...PAGE, versions: { media: ['unreleased'] } });
    // The header at 0123456789ab (a tester's version kept by the tab, say): not this token's.
    slot(async () => ({ default: () => <p>header</p> }) as never);
    await screen.findByText('header');
    hide();
    expect(beacons[0]?.beacon.versions).toEqual({});
    // Kept for the back/forward cache: it may come back, not final.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    expect(beacons).toHaveLength(1);
    // Left by a navigation: pagehide, then the page's last visibilitychange, at which web-vitals
    // finalizes LCP and CLS (here a listener of the window's capture phase, where web-vitals
    // listens, has an error to tell): the final beacon goes then, with it.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(beacons).toHaveLength(1);
    const finalizing = () =>
      window.dispatchEvent(new ErrorEvent('error', { error: new Error('at hide'), message: 'at hide' }));
    window.addEventListener('visibilitychange', finalizing, { capture: true, once: true });
    hide();
    expect(beacons).toHaveLength(2);
    expect(beacons[1]?.beacon).toMatchObject({ load: PAGE.load, final: true, errors: [{ message: 'Error: at hide' }] });
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('late'), message: 'late' }));
    hide();
    expect(beacons).toHaveLength(2);
  });
});

describe('a page hidden before it goes away', () => {
  it('sends its final beacon at pagehide: no visibilitychange is to come', async () => {
    await started({ ...TEST_CONFIG, rumSample: 1 });
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new ErrorEvent('error', { error: new Error('while hidden'), message: 'while hidden' }));
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
    // The hiding had nothing to tell; the error after it goes at pagehide, final.
    expect(beacons.map((b) => [b.beacon.final ?? false, b.beacon.errors.map((e) => e.message)])).toEqual([
      [true, ['Error: while hidden']],
    ]);
  });
});

describe("the page's token", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answering = (response: Response) => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => response);
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };

  it("is asked of the page's own origin for its address, never from a cache", async () => {
    const fetch = answering(Response.json(PAGE));
    expect(await requestPageToken('?version=header@aaaaaaaaaaaa')).toEqual(PAGE);
    expect(fetch).toHaveBeenCalledWith(
      '/platform/rum-token?version=header@aaaaaaaaaaaa',
      expect.objectContaining({ cache: 'no-store' }),
    );
  });

  it('is none where the server signs none, answers a page instead, or is down', async () => {
    answering(Response.json({ error: 'no key' }, { status: 404 }));
    expect(await requestPageToken('')).toBeNull();
    answering(new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }));
    expect(await requestPageToken('')).toBeNull();
    answering(Response.json({ load: 'x', token: 1, versions: {} }));
    expect(await requestPageToken('')).toBeNull();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await requestPageToken('')).toBeNull();
  });
});

describe('attribution', () => {
  it('names the slot that holds an element, and the shell outside every slot', () => {
    document.body.innerHTML = '<div data-remote="media"><main><img id="cover"></main></div><footer id="f">x</footer>';
    expect(ownerOfNode(document.getElementById('cover'))).toBe('media');
    expect(ownerOfNode(document.getElementById('f')?.firstChild)).toBe('shell');
    expect(ownerOfNode(null)).toBe('shell');
    document.body.innerHTML = '<div data-remote="evil"><p id="p"></p></div>';
    expect(ownerOfNode(document.getElementById('p'))).toBe('shell');
  });

  it('names the remote whose files a stack runs through, the longest base winning', () => {
    const bases = { header: 'http://store.test/header/aaaaaaaaaaaa/', media: 'http://store.test/media/bbbbbbbbbbbb/' };
    const stack = (url: string) => `Error: x\n    at a (http://shell.test/react-dom.js:1:1)\n    at b (${url}:3:4)`;
    expect(ownerOfStack(stack('http://store.test/media/bbbbbbbbbbbb/chunk.js'), bases)).toBe('media');
    expect(ownerOfStack(stack('http://shell.test/main.js'), bases)).toBe('shell');
    expect(ownerOfStack(undefined, bases)).toBe('shell');
  });

  it("names a server build's remote by the folder its frames run from", () => {
    const bases = { header: '/tmp/page-server-builds-x/header-0123456789abcdef/' };
    const stack = [
      'Error: flaky header',
      '    at HeaderBar (/tmp/page-server-builds-x/header-0123456789abcdef/server/__federation_expose_Header.js:2:31)',
      '    at renderWithHooks (/srv/shell/dist-server/render.cjs:4:5)',
    ].join('\n');
    expect(ownerOfStack(stack, bases)).toBe('header');
    expect(ownerOfStack('Error: x\n    at /srv/shell/dist-server/render.cjs:4:5', bases)).toBe('shell');
  });

  it("attributes by the original error behind React's wrappers, then by the component stack, else the shell", () => {
    const bases = { header: HEADER_BASE };
    const original = headerError('flaky header');
    const wrapper = new Error('There was an error during concurrent rendering', { cause: original });
    wrapper.stack = 'Error: There was an error\n    at recoverFromConcurrentError (http://shell.test/react-dom.js:1:1)';
    expect(originalError(wrapper)).toBe(original);
    expect(ownerOfError(wrapper, bases)).toBe('header');
    // Thrown by the shell's code the header called: the header's component in the component stack says whose.
    const inShared = new Error('bad props');
    inShared.stack = 'Error: bad props\n    at Button (http://shell.test/shared.js:1:1)';
    const componentStack = `\n    at Button (http://shell.test/shared.js:1:1)\n    at HeaderBar (${HEADER_BASE}src_header_HeaderBar_tsx.1a2b3c4d.js:1:1)`;
    expect(ownerOfError(inShared, bases)).toBe('shell');
    expect(ownerOfError(inShared, bases, { componentStack })).toBe('header');
    // A cause chain that loops ends; a thrown non-error has no stack.
    const looped = new Error('a');
    looped.cause = looped;
    expect(ownerOfError(looped, bases)).toBe('shell');
    expect(ownerOfError('a string', bases, { location: `${HEADER_BASE}remoteEntry.js` })).toBe('header');
  });

  it("gives an error's frame: the top one in its owner's files, as the path, line and column, without origin or query", () => {
    const bases = { header: HEADER_BASE, media: 'http://releases.test/media/bbbbbbbbbbbb/' };
    const error = new TypeError('x is undefined');
    error.stack = [
      // A URL in the message is no frame (no line), nor are the shell's or another remote's frames.
      `TypeError: x is undefined (loading ${HEADER_BASE}remoteEntry.js)`,
      '    at useThing (http://shell.test/shared.js:1:10)',
      '    at Cover (http://releases.test/media/bbbbbbbbbbbb/cover.js:4:4)',
      `    at HeaderBar (${HEADER_BASE}src_header.1a2b.js?v=2#top:1:2345)`,
      `    at render (${HEADER_BASE}remoteEntry.js:9:9)`,
    ].join('\n');
    expect(frameOfError(error, 'header', bases)).toBe('/header/0123456789ab/src_header.1a2b.js:1:2345');
    // Firefox's and Safari's frames, and a development server's origin with its port.
    const firefox = new Error('x');
    firefox.stack = 'HeaderBar@http://localhost:3001/src_header.js:12:7\n@http://shell.test/main.js:1:1';
    expect(frameOfError(firefox, 'header', { header: 'http://localhost:3001/' })).toBe('/src_header.js:12:7');
    // A server build's frame keeps its file's path.
    const server = new Error('x');
    server.stack = 'Error: x\n    at HeaderBar (/tmp/builds/header-0123/server/expose_Header.js:2:31)';
    expect(frameOfError(server, 'header', { header: '/tmp/builds/header-0123/' })).toBe(
      '/tmp/builds/header-0123/server/expose_Header.js:2:31',
    );
    // Thrown in the shell's code the header called: the component stack's frame in the header's files.
    const inShared = new Error('bad props');
    inShared.stack = 'Error: bad props\n    at Button (http://shell.test/shared.js:1:1)';
    const componentStack = `\n    at Button (http://shell.test/shared.js:1:1)\n    at HeaderBar (${HEADER_BASE}bar.js:3:5)`;
    expect(frameOfError(inShared, 'header', bases, { componentStack })).toBe('/header/0123456789ab/bar.js:3:5');
    // The shell's errors, and errors without a stack in their owner's files, have none.
    expect(frameOfError(inShared, 'shell', bases, { componentStack })).toBeUndefined();
    expect(frameOfError(new Error('no stack here'), 'header', bases)).toBeUndefined();
    expect(frameOfError('a string', 'header', bases)).toBeUndefined();
    // A long path is cut from its start: the file, line and column stay.
    const long = frameOfLocation(`http://releases.test/${'deep/'.repeat(60)}chunk.js:1:2`);
    expect(long).toHaveLength(BEACON_FRAME_CHARS);
    expect(long).toMatch(/\/deep\/chunk\.js:1:2$/);
    expect(frameOfLocation('http://releases.test/header/remoteEntry.js')).toBeNull();
  });

  it("says what the beacon reports of each page error, the messages in the original error's words", () => {
    const bases = { header: HEADER_BASE };
    const wrapped = new Error('Minified React error #520', { cause: headerError('flaky header') });
    expect(beaconErrorOf({ kind: 'recoverable', error: wrapped }, bases)).toEqual({
      owner: 'header',
      kind: 'render',
      message: 'Error: flaky header',
      frame: HEADER_FRAME,
    });
    expect(beaconErrorOf({ kind: 'error', error: null, message: 'Script error.', filename: '' }, bases)).toEqual({
      owner: 'shell',
      kind: 'uncaught',
      message: 'Script error.',
    });
    expect(beaconErrorOf({ kind: 'rejection', error: headerError('no answer') }, bases)).toEqual({
      owner: 'header',
      kind: 'rejection',
      message: 'Error: no answer',
      frame: HEADER_FRAME,
    });
    // An uncaught error named by its script's file alone (no stack in the header's files): no frame.
    expect(beaconErrorOf({ kind: 'error', error: 'thrown', filename: `${HEADER_BASE}remoteEntry.js` }, bases)).toEqual({
      owner: 'header',
      kind: 'uncaught',
      message: 'thrown',
    });
    expect(
      beaconErrorOf(
        { kind: 'recoverable', error: new Error('The server could not finish this Suspense boundary') },
        bases,
      ),
    ).toBeNull();
  });
});

describe('the collector', () => {
  it('keeps the first version a load used, the latest vitals, and carries at most 20 errors a beacon', () => {
    const c = new Collector(PAGE);
    c.used('header', 'aaaaaaaaaaaa');
    c.used('header', 'bbbbbbbbbbbb');
    c.vital('LCP', 900, 'media');
    c.vital('LCP', 1500, 'header');
    for (let i = 0; i < 25; i++) c.error({ owner: 'media', kind: 'uncaught', message: `e${i} ${'x'.repeat(400)}` });
    const first = c.take();
    expect(first?.versions).toEqual({ header: 'aaaaaaaaaaaa' });
    expect(first?.vitals.LCP).toEqual({ value: 1500, owner: 'header' });
    expect(first?.errors).toHaveLength(20);
    expect(first?.errors[0]?.message).toHaveLength(300);
    expect(c.take()?.errors).toHaveLength(5);
    expect(c.take()).toBeNull();
  });

  it("sends nothing before it has the load's token", () => {
    const c = new Collector();
    c.vital('LCP', 900, 'media');
    expect(c.take()).toBeNull();
    expect(c.take(true)).toBeNull();
    c.sign(PAGE);
    expect(c.take()?.vitals.LCP).toEqual({ value: 900, owner: 'media' });
  });

  it(`sends at most ${MAX_BEACONS_PER_LOAD} beacons per load`, () => {
    const c = new Collector(PAGE);
    let sent = 0;
    for (let i = 0; i < 30; i++) {
      c.vital('CLS', i, 'shell');
      if (c.take()) sent += 1;
    }
    expect(sent).toBe(MAX_BEACONS_PER_LOAD);
  });
});
