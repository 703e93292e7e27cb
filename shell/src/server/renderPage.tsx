import { hashKey, QueryClientProvider } from '@tanstack/react-query';
import { ServerStyleSheet, StyleSheetManager } from 'styled-components';
import {
  cookieIn,
  createQueryClient,
  createSessionStore,
  dehydrateForPage,
  GlobalStyle,
  isLoggedInCookie,
  isNotFoundHead,
  MemoryRouter,
  pageAt,
  parseRuntimeConfig,
  PLATFORM_COOKIES,
  routeHead,
  ServerHeadContext,
  SessionStoreContext,
  setRuntimeConfig,
  type Composition,
  type PageHead,
} from '@marketplace/shared';
import { App } from '../app/App.js';
import { PreloadedSlots } from '../remotes/preloaded.js';
import { DEFAULT_BUDGETS, type RenderedPage, type RenderRequest } from './contract.js';
import { askedFor, type DataContext, loadPageData, loadSession } from './pageData.js';
import { type PassError, renderPass } from './renderPass.js';
import { loadSlots, remoteFailures } from './slots.js';

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
  const { preloaded, slots } = await loadSlots(request, config, composition, route, budgets.remoteMs, problems);
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

  const failures = remoteFailures(slots, request.sourceOf);

  try {
    const sheet = new ServerStyleSheet();
    const passErrors: PassError[] = [];
    let html: string;
    let styles: string;
    try {
      html = await renderPass(page(sheet), budgets.renderMs, problems, passErrors);
      styles = sheet.getStyleTags();
      failures.note(passErrors);
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
        ...(failures.list().length > 0 && { failures: failures.list() }),
        // Kept copies of this page share it: the canary judges one load per render.
        render: globalThis.crypto.randomUUID(),
        ...(serverSession && { session: serverSession }),
        loggedIn: isLoggedIn,
      },
      head: finalHead,
      problems,
      notes,
      failures: failures.list(),
      // A member's page has its content when their session was there to render it with.
      hasContent: !isLoggedIn || serverSession !== null,
      personal: isLoggedIn,
    };
  } finally {
    queryClient.clear();
  }
}
