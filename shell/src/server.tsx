// The shell's server build (build-preset: `dist-server/render.js`): renders a page of the
// platform for its page server (page-server/render-page.mjs), header and route from the remotes'
// own server builds, with this build's one copy of every shared singleton, which it also hands
// the remotes. Nothing here outlives a request: store, query cache, styles and head are its own.
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import { renderToPipeableStream } from 'react-dom/server';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import { Writable } from 'node:stream';
import * as styledComponents from 'styled-components';
import { ServerStyleSheet, StyleSheetManager } from 'styled-components';
import * as zustand from 'zustand';
import * as reactQuery from '@tanstack/react-query';
import { hashKey, QueryClientProvider, type Query, type QueryClient } from '@tanstack/react-query';
import * as shared from '@marketplace/shared';
import {
  AFTER_PAINT_SCRIPT_TYPE,
  createQueryClient,
  createSessionStore,
  dehydrateForPage,
  documentTitle,
  GlobalStyle,
  isLoggedInCookie,
  isNotFoundHead,
  isNotFoundQuery,
  keepNotFoundAnswers,
  MemoryRouter,
  pageAt,
  parseRuntimeConfig,
  apiCallWith,
  cookieIn,
  PLATFORM_COOKIES,
  sendPageCall,
  type ServerSession,
  statusOf,
  type PageCall,
  routeHead,
  ServerHeadContext,
  SessionStoreContext,
  setRuntimeConfig,
  SITE_NAME,
  stateScript,
  type Composition,
  type PageHead,
  type RemoteName,
  type ServerFailure,
  type ServerState,
} from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
import { withTimeout } from '@marketplace/shared/timeout';
import { App } from './app/App.js';
import { versionsForRequest } from './remotes/discovery.js';
import { PreloadedSlots, type PreloadedSlot, type SlotComponent } from './remotes/preloaded.js';
import { describeError, ownerOfError, type RemoteBases } from './telemetry/attribution.js';

declare const SINGLETON_VERSIONS: Record<string, string>;

/** This build's copy of every singleton the remotes share (build-preset/shared-deps.mjs), for their server builds. */
export const singletons: Record<string, { version: string; lib: () => unknown }> = Object.fromEntries(
  Object.entries({
    react: React,
    'react/jsx-runtime': jsxRuntime,
    'react/jsx-dev-runtime': jsxDevRuntime,
    'react-dom': ReactDOM,
    'react-dom/client': ReactDOMClient,
    zustand,
    'styled-components': styledComponents,
    '@tanstack/react-query': reactQuery,
    '@marketplace/shared': shared,
  }).map(([name, lib]) => [name, { version: SINGLETON_VERSIONS[name] ?? '0.0.0', lib: () => lib }]),
);

/** How long a render waits for each part before it leaves that part to the browser. */
export interface RenderBudgets {
  /** A remote's server build (manifest, files, entry). */
  remoteMs: number;
  /**
   * The page's data deadline: its loader's calls run at once, and what has not answered by then
   * is aborted and left to the browser (a skeleton in the HTML), so a slow API is asked each
   * call once by the server, whatever its speed.
   */
  dataMs: number;
  /** The one rendering pass. */
  renderMs: number;
}

// Loaders and remote modules run side by side: a page costs at most remoteMs (the slower of
// the two) plus its render, and a slow API at most dataMs.
const DEFAULT_BUDGETS: RenderBudgets = { remoteMs: 1500, dataMs: 500, renderMs: 2000 };

/** One exposed module of the remote version whose browser manifest is at `manifestUrl`. */
export type LoadServerModule = (request: {
  remote: RemoteName;
  manifestUrl: string;
  /** The manifest, when the page's composition holds it already. */
  manifest: unknown;
  exposed: string;
}) => Promise<unknown>;

export interface RenderRequest {
  /** Path and query of the page asked for. */
  url: string;
  /** The request's Cookie header ('' when none). */
  cookie: string;
  /** The page's composition block, as its server composed it (shared/src/platform/composition.ts). */
  composition: unknown;
  load: LoadServerModule;
  /**
   * Where the server build of the version at `manifestUrl` runs from (its folder), once loaded:
   * an error whose stack or component stack runs through it is that remote's. A page server
   * without it (older) gets no failures attributed to remotes.
   */
  sourceOf?: (manifestUrl: string) => string | undefined;
  budgets?: Partial<RenderBudgets>;
  /** Where this server reaches the API, when not at the page's `apiOrigin` (an internal address). */
  apiOrigin?: string;
}

export interface RenderedPage {
  /** 200, or 404 for an address with no page or whose thing does not exist. */
  status: number;
  /** The inside of the page's root element. */
  html: string;
  /** styled-components' style elements for that HTML. */
  styles: string;
  state: ServerState;
  head: PageHead;
  /** Server-side trouble that left a part to the browser (a remote down, a render that threw). */
  problems: string[];
  /**
   * Data left to the browser: calls the API did not answer by the deadline, calls its
   * components made that the page's loader does not name. The API's or the table's, not the
   * remotes' (a release gate does not hold a remote to them).
   */
  notes: string[];
  /** Of those, the remotes that threw while rendering, each error once (also in `state`, for the page's beacon). */
  failures: ServerFailure[];
  /** Whether the HTML holds the page's content, not a frame that scripts fill. */
  hasContent: boolean;
  /** A logged-in visitor's page: theirs alone, for no shared cache. */
  personal: boolean;
}

/** An error a pass met, with the component stack React gave with it. */
type PassError = { error: unknown; componentStack?: string };

/** The HTML of one pass; a part still suspended when the budget ends is left to the browser. */
function renderPass(tree: React.ReactNode, budgetMs: number, problems: string[], errors: PassError[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        clearTimeout(timer);
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      // The page is sent whole (onAllReady), so nothing is gained by React's outlining of a large
      // Suspense boundary (over 12.8 KB by default: a gallery with its srcsets) into a segment
      // completed by an inline script, which the page's CSP refuses: the boundary stays inline.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError(error, info) {
        problems.push(messageOf(error));
        errors.push({ error, componentStack: info.componentStack });
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`render took over ${budgetMs} ms`)), budgetMs);
  });
}

/** How a render's calls reach the API: where from, with whose session, until when. */
interface DataContext {
  /** The page's data deadline, aborting whatever has not answered. */
  deadline: AbortSignal;
  deadlineMs: number;
  apiOrigin?: string;
  /** A logged-in visitor's session cookie alone (`session=…`), none for a visitor. */
  cookie?: string;
}

/** Sends one call within the page's deadline and its own timeout; null when it gave no answer in time, or failed. */
function withinDeadline(context: DataContext) {
  const signal = AbortSignal.any([context.deadline, AbortSignal.timeout(CALL_TIMEOUT_MS)]);
  return { signal, apiOrigin: context.apiOrigin, cookie: context.cookie };
}

/** Why a call gave no answer for the page, or null when its failure is an answer (not found, not yours). */
function missed(name: string, error: unknown, context: DataContext): string | null {
  if ([401, 403, 404].includes(statusOf(error))) return null;
  const why = context.deadline.aborted ? `no answer within ${context.deadlineMs} ms` : describeError(error);
  return `${name}: ${why}; left to the browser`;
}

/**
 * The page's loader, run: every call at once, each with the page's data deadline as its signal
 * (and the call's own timeout), into `client`. A call that has not answered by the deadline is
 * aborted; it and any other failure but "does not exist" leave the cache, so the page renders
 * them loading and the browser asks (the API may be back by then).
 */
async function loadPageData(client: QueryClient, calls: readonly PageCall[], context: DataContext) {
  const notes: string[] = [];
  await Promise.all(
    calls.map(async (call) => {
      try {
        const options = withinDeadline(context);
        await client.fetchQuery({ queryKey: call.queryKey, queryFn: () => sendPageCall(call, options) });
      } catch (error) {
        const note = missed(call.name, error, context);
        if (note) notes.push(note);
      }
    }),
  );
  keepNotFoundAnswers(client);
  const cache = client.getQueryCache();
  for (const query of cache.findAll({ predicate: (q) => q.state.status !== 'success' && !isNotFoundQuery(q) }))
    cache.remove(query);
  return notes;
}

/**
 * A logged-in visitor's session as their header and cart show it (the session store's load(),
 * on the server): null when it is not one (ended, unknown) or not there by the deadline, and the
 * browser loads it as it would without a server.
 */
async function loadSession(context: DataContext, notes: string[]): Promise<ServerSession | null> {
  try {
    const [user, { cart }] = await Promise.all([
      apiCallWith(withinDeadline(context), 'getUserInfo'),
      apiCallWith(withinDeadline(context), 'getCart'),
    ]);
    return user.username ? { user, cart } : null;
  } catch (error) {
    const note = missed('the session', error, context);
    if (note) notes.push(note);
    return null;
  }
}

/** Whether the render asked for a query and got no answer: pending and enabled (a search box's empty query is not). */
function askedFor(query: Query): boolean {
  if (query.state.status !== 'pending') return false;
  const options = query.options as { enabled?: boolean | ((q: Query) => boolean) };
  const enabled = typeof options.enabled === 'function' ? options.enabled(query) : options.enabled;
  return enabled !== false;
}

/** No call of a render waits longer than this, whatever deadline its page was given. */
const CALL_TIMEOUT_MS = 5000;

/**
 * Renders one page: the remote modules of its header and route at the versions the browser will
 * take, and beside them the data its loader names (the platform table's), then one pass. A
 * logged-in visitor's page is rendered with their session (header, cart) and data, asked of the
 * API with their session cookie; what is not there by the deadline is a skeleton the browser fills.
 */
export async function renderPage(request: RenderRequest): Promise<RenderedPage> {
  const budgets = { ...DEFAULT_BUDGETS, ...request.budgets };
  // As the browser reads it (pageComposition): parts the server could not compose are absent.
  const { config: rawConfig, discovery = null, manifests } = (request.composition ?? {}) as Partial<Composition>;
  const config = parseRuntimeConfig(rawConfig);
  const composition: Composition = {
    config,
    discovery,
    manifests: typeof manifests === 'object' && manifests !== null ? manifests : {},
  };
  // The same for every request (the deployment's): the API calls the remotes make read it.
  setRuntimeConfig(config);
  const { pathname, search } = new URL(request.url, 'http://page');
  const route = pageAt(pathname);
  const isLoggedIn = isLoggedInCookie(request.cookie);
  const problems: string[] = [];

  const queryClient = createQueryClient();
  // One try each: a retry's back-off would outlast the deadline; the browser retries.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  // A logged-in visitor's page is rendered with their data too: their session cookie (nothing
  // else of theirs) goes with the calls, and the page is theirs alone (personal, never kept).
  const session = isLoggedIn ? cookieIn(request.cookie, PLATFORM_COOKIES.session) : null;
  const context: DataContext = {
    deadline: AbortSignal.timeout(budgets.dataMs),
    deadlineMs: budgets.dataMs,
    apiOrigin: request.apiOrigin,
    ...(session && { cookie: `${PLATFORM_COOKIES.session}=${session}` }),
  };
  const calls = route && (!isLoggedIn || session) ? route.calls({ pathname, search }) : [];
  const sessionNotes: string[] = [];
  const loadingData = Promise.all([
    loadPageData(queryClient, calls, context),
    session ? loadSession(context, sessionNotes) : null,
  ]);

  // The remote modules the page starts with, each within the budget; one that fails is the browser's.
  const resolved = versionsForRequest(config, composition, request.cookie, search);
  const wantedSlots: [RemoteName, string][] = [['header', 'Header']];
  if (route) wantedSlots.push([route.remote, route.module]);
  const preloaded = new Map<string, PreloadedSlot>();
  const slots: Record<string, string> = {};
  await Promise.all(
    wantedSlots.map(async ([remote, exposed]) => {
      if (resolved.undecided.has(remote)) return;
      const manifestUrl = resolved.remotes[remote];
      const id = `${remote}/${exposed}`;
      try {
        const loading = request.load({ remote, manifestUrl, manifest: resolved.manifests.get(manifestUrl), exposed });
        const loaded = await withTimeout(
          loading,
          budgets.remoteMs,
          () => new Error(`not loaded within ${budgets.remoteMs} ms`),
        );
        const component = (loaded as { default?: unknown } | null)?.default;
        if (typeof component !== 'function') throw new Error('not a component');
        preloaded.set(id, { status: 'ready', Component: component as SlotComponent });
        slots[id] = manifestUrl;
      } catch (error) {
        problems.push(`${id}: ${messageOf(error)}`);
      }
    }),
  );
  const [dataNotes, serverSession] = await loadingData;
  const notes = [...dataNotes, ...sessionNotes];

  const store = createSessionStore({ isLoggedIn, session: serverSession });
  // The head the page says while rendering.
  const said: { head: PageHead | null } = { head: null };
  const page = (styles: ServerStyleSheet) => {
    const tree = (
      <ServerHeadContext.Provider value={(head) => (said.head = head)}>
        <SessionStoreContext.Provider value={store}>
          <PreloadedSlots.Provider value={preloaded}>
            <QueryClientProvider client={queryClient}>
              <GlobalStyle />
              <MemoryRouter initialEntries={[request.url]}>
                <App />
              </MemoryRouter>
            </QueryClientProvider>
          </PreloadedSlots.Provider>
        </SessionStoreContext.Provider>
      </ServerHeadContext.Provider>
    );
    return <StyleSheetManager sheet={styles.instance}>{tree}</StyleSheetManager>;
  };

  // Where each remote's server code runs from, to tell its errors from the shell's.
  const bases: RemoteBases = {};
  for (const [id, manifestUrl] of Object.entries(slots)) {
    const source = request.sourceOf?.(manifestUrl);
    if (source) bases[id.split('/')[0] as RemoteName] = source.endsWith('/') ? source : `${source}/`;
  }
  // A remote that threw while rendering, even one React recovered from (as the browser counts
  // it), once per remote and message.
  const failures = new Map<string, ServerFailure>();
  const noteFailures = (errors: PassError[]) => {
    for (const { error, componentStack } of errors) {
      const owner = ownerOfError(error, bases, { componentStack });
      if (owner === 'shell') continue;
      const failure = { remote: owner, message: describeError(error) };
      failures.set(`${failure.remote}\0${failure.message}`, failure);
    }
  };

  try {
    const sheet = new ServerStyleSheet();
    const passErrors: PassError[] = [];
    let html: string;
    let styles: string;
    try {
      html = await renderPass(page(sheet), budgets.renderMs, problems, passErrors);
      styles = sheet.getStyleTags();
      noteFailures(passErrors);
    } finally {
      sheet.seal();
    }
    // A call its components made that the loader does not name: rendered loading, and asked by the
    // browser; the loader should name it (a member's header asks for more: notifications, chats).
    const named = new Set(calls.map((call) => hashKey(call.queryKey)));
    if (!isLoggedIn)
      for (const query of queryClient.getQueryCache().findAll({ predicate: askedFor }))
        if (!named.has(query.queryHash))
          notes.push(`${query.queryHash} was asked while rendering, not by the page's loader: left to the browser`);
    const finalHead = (said.head as PageHead | null) ?? routeHead(pathname);
    return {
      status: route && !isNotFoundHead(finalHead) ? 200 : 404,
      html,
      styles,
      state: {
        queries: dehydrateForPage(queryClient),
        slots,
        ...(failures.size > 0 && { failures: [...failures.values()] }),
        ...(serverSession && { session: serverSession }),
        loggedIn: isLoggedIn,
      },
      head: finalHead,
      problems,
      notes,
      failures: [...failures.values()],
      // A member's page has its content when their session was there to render it with.
      hasContent: !isLoggedIn || serverSession !== null,
      personal: isLoggedIn,
    };
  } finally {
    queryClient.clear();
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * What the page says it is, to people and to machines: its title, description, canonical
 * address, and the Open Graph and Twitter card tags a shared link's preview is made of.
 */
export function headTags(head: PageHead, canonicalUrl: string): string {
  const title = escapeHtml(documentTitle(head.title));
  const description = escapeHtml(head.description);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${escapeHtml(canonicalUrl)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(SITE_NAME)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(canonicalUrl)}" />`,
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ];
  if (head.image)
    tags.push(
      `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
      `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`,
    );
  return tags.join('\n    ');
}

export interface DocumentRequest extends RenderRequest {
  /** The app's page (its build's index.html, its composition filled). */
  template: string;
  /** The page's public origin (`https://example.com`), for its canonical address. */
  origin: string;
}

/**
 * The template asks for main.js and the boot chunks first (build-preset/boot-hints.mjs): an
 * empty page paints nothing until they run. A page that arrived with its content paints without
 * them, and on a slow line they would take the bytes and the main thread its pictures need: its
 * main.js (`data-src`) and the boot chunks' hints (`data-hint`) are left to the page's boot
 * script, which has them downloaded once the page's first content is on the screen and runs
 * main.js once its pictures are too (page-server/boot-script.mjs). A script of an unknown type is
 * neither fetched nor run.
 */
export const scriptsAfterContent = (template: string): string =>
  template
    .replace(
      /<link rel="preload" as="script" href="([^"]+)"[^>]*>/g,
      `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-hint="$1"></script>`,
    )
    .replace(
      /<script defer src="([^"]+)"[^>]*><\/script>/g,
      `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-src="$1"></script>`,
    );

/**
 * The whole page: the template with the rendered HTML in its root, the state the browser
 * hydrates it with after it, and the head and styles of what was rendered. The template's own
 * title and description are replaced, not repeated.
 */
export async function renderDocument(
  request: DocumentRequest,
): Promise<{ status: number; body: string; problems: string[]; notes: string[]; personal: boolean }> {
  const page = await renderPage(request);
  const { pathname } = new URL(request.url, 'http://page');
  const head = headTags(page.head, `${request.origin}${pathname}`);
  const template = page.hasContent ? scriptsAfterContent(request.template) : request.template;
  const body = template
    .replace(/<title>[^<]*<\/title>\s*/, '')
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace('</head>', () => `  ${head}\n    ${page.styles}\n  </head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>\n    ${stateScript(page.state)}`);
  // A logged-in visitor's page is theirs (their header, their data): no shared cache may keep it.
  return { status: page.status, body, problems: page.problems, notes: page.notes, personal: page.personal };
}
