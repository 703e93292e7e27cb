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
import { QueryClientProvider, type Query, type QueryClient } from '@tanstack/react-query';
import * as shared from '@marketplace/shared';
import {
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
import { App } from './app/App.js';
import { versionsForRequest } from './remotes/discovery.js';
import { PreloadedSlots, type PreloadedSlot, type SlotComponent } from './remotes/preloaded.js';
import { messageOf, ownerOfError, type RemoteBases } from './telemetry/attribution.js';

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
  /** The API's answers, per round of queries. */
  dataMs: number;
  /** Each rendering pass. */
  renderMs: number;
}

const DEFAULT_BUDGETS: RenderBudgets = { remoteMs: 1500, dataMs: 1500, renderMs: 2000 };

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
  /** Of those, the remotes that threw while rendering, each error once (also in `state`, for the page's beacon). */
  failures: ServerFailure[];
  /** Whether the HTML holds the page's content (a visitor's page), not a frame that scripts fill. */
  hasContent: boolean;
}

const after = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms).unref());

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
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError(error, info) {
        problems.push(error instanceof Error ? error.message : String(error));
        errors.push({ error, componentStack: info.componentStack });
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`render took over ${budgetMs} ms`)), budgetMs);
  });
}

/** Whether a query the render asked for can be asked now: not yet asked, enabled, with a function. */
function wanted(query: Query): boolean {
  if (query.state.status !== 'pending' || query.state.fetchStatus !== 'idle') return false;
  const options = query.options as { enabled?: boolean | ((q: Query) => boolean) };
  const enabled = typeof options.enabled === 'function' ? options.enabled(query) : options.enabled;
  return enabled !== false && typeof query.options.queryFn === 'function';
}

/** Asks the API what the last pass wanted; what has not answered within the budget is left to the browser. */
async function fetchWanted(client: QueryClient, budgetMs: number): Promise<boolean> {
  const queries = client.getQueryCache().findAll({ predicate: wanted });
  if (queries.length === 0) return false;
  const answered = Promise.allSettled(queries.map((query) => query.fetch()));
  if ((await Promise.race([answered, after(budgetMs)])) === 'late') await client.cancelQueries();
  return true;
}

/**
 * Failures other than "does not exist" are not shown from the server: the API may be back by
 * the time the browser asks, so those parts render loading, as they would in the browser.
 * Whether that changes what the page renders.
 */
function forgetFailures(client: QueryClient): boolean {
  const cache = client.getQueryCache();
  let forgotAnError = false;
  for (const query of cache.findAll({ predicate: (q) => q.state.status !== 'success' && !isNotFoundQuery(q) })) {
    forgotAnError ||= query.state.status === 'error';
    cache.remove(query);
  }
  // A pending query forgotten renders the same when asked for again (loading); a failure does not.
  return forgotAnError;
}

/**
 * Renders one page: the remote modules of its header and route at the versions the browser will
 * take, then passes until the API's answers the page asks for are in (three rounds at most); the
 * last pass, with its styles, is the page. A logged-in visitor's page is the frame: the header in its
 * logged-in shape with placeholders, pages with the skeletons their data fills in the browser.
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
        const loaded = await Promise.race([loading, after(budgets.remoteMs)]);
        if (loaded === 'late') throw new Error(`not loaded within ${budgets.remoteMs} ms`);
        const component = (loaded as { default?: unknown } | null)?.default;
        if (typeof component !== 'function') throw new Error('not a component');
        preloaded.set(id, { status: 'ready', Component: component as SlotComponent });
        slots[id] = manifestUrl;
      } catch (error) {
        problems.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );

  const queryClient = createQueryClient();
  // One try each: a retry's back-off would outlast the budget; the browser retries.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const store = createSessionStore({ isLoggedIn });
  // The last head the page says while rendering (the final pass's counts).
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
  // Every pass's, not only the last's: a remote that threw in one pass threw in this page's render
  // (as the browser counts a render React recovered from), once per remote and message.
  const failures = new Map<string, ServerFailure>();
  const noteFailures = (errors: PassError[]) => {
    for (const { error, componentStack } of errors) {
      const owner = ownerOfError(error, bases, { componentStack });
      if (owner === 'shell') continue;
      const failure = { remote: owner, message: messageOf(error) };
      failures.set(`${failure.remote}\0${failure.message}`, failure);
    }
  };

  /** One pass with its styles, head and problems: the last one is the page. */
  const pass = async () => {
    const sheet = new ServerStyleSheet();
    const passProblems: string[] = [];
    const passErrors: PassError[] = [];
    said.head = null;
    try {
      const html = await renderPass(page(sheet), budgets.renderMs, passProblems, passErrors);
      noteFailures(passErrors);
      return { html, styles: sheet.getStyleTags(), head: said.head as PageHead | null, problems: passProblems };
    } finally {
      sheet.seal();
    }
  };

  try {
    let last = await pass();
    // A visitor's data only: a logged-in visitor's pages fill in the browser, with their cookies.
    // Another pass after each round of answers, until a pass asks for nothing new (three rounds at most).
    if (!isLoggedIn)
      for (let round = 0; round < 3 && (await fetchWanted(queryClient, budgets.dataMs)); round++) {
        // A "does not exist" is the answer, to render as such, not to ask again.
        keepNotFoundAnswers(queryClient);
        last = await pass();
      }
    if (forgetFailures(queryClient)) last = await pass();
    const finalHead = last.head ?? routeHead(pathname);
    return {
      status: route && !isNotFoundHead(finalHead) ? 200 : 404,
      html: last.html,
      styles: last.styles,
      state: {
        queries: dehydrateForPage(queryClient),
        slots,
        ...(failures.size > 0 && { failures: [...failures.values()] }),
      },
      head: finalHead,
      problems: [...problems, ...last.problems],
      failures: [...failures.values()],
      hasContent: !isLoggedIn,
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
 * empty page paints nothing until they run. A page that arrives with its content paints without
 * them, so they yield to what it shows (its pictures, the largest of which the page is judged by);
 * they still start at once, only lower in the queue.
 */
const scriptsAfterContent = (template: string) =>
  template
    .replace(/(<script\b[^>]*?) fetchpriority="high"/g, '$1 fetchpriority="low"')
    .replace(/<link rel="preload" as="script"/g, '<link rel="preload" as="script" fetchpriority="low"');

/**
 * The whole page: the template with the rendered HTML in its root, the state the browser
 * hydrates it with after it, and the head and styles of what was rendered. The template's own
 * title and description are replaced, not repeated.
 */
export async function renderDocument(
  request: DocumentRequest,
): Promise<{ status: number; body: string; problems: string[]; personal: boolean }> {
  const page = await renderPage(request);
  const { pathname } = new URL(request.url, 'http://page');
  const head = headTags(page.head, `${request.origin}${pathname}`);
  const template = page.hasContent ? scriptsAfterContent(request.template) : request.template;
  const body = template
    .replace(/<title>[^<]*<\/title>\s*/, '')
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace('</head>', () => `  ${head}\n    ${page.styles}\n  </head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>\n    ${stateScript(page.state)}`);
  // A logged-in visitor's frame is theirs (their header's shape): no shared cache may keep it.
  return { status: page.status, body, problems: page.problems, personal: !page.hasContent };
}
