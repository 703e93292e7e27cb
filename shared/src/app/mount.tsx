import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createGlobalStyle } from 'styled-components';
import { statusOf } from '../api/client.js';
import { loadRuntimeConfig, type RuntimeConfig } from '../config/runtime.js';
import { DATA_CACHE_TIME_MS } from '../constants.js';
import { sessionStore } from '../session/store.js';
import { reportPageError } from '../platform/pageErrors.js';
import { rootErrorHandlers } from './rootErrors.js';
import { hydrateFromPage, serverStateInPage, type ServerState } from './serverState.js';
import { theme } from '../ui/theme.js';

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; font-family: ${theme.font}; color: ${theme.colors.text}; background: ${theme.colors.background}; }
  a { color: ${theme.colors.primary}; }
`;

/** The query client every app uses: the spec's 5-minute data cache (SPEC.md section 9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // One retry for a failure; none for a thing that does not exist (asking again will not make it).
      queries: {
        gcTime: DATA_CACHE_TIME_MS,
        staleTime: 30_000,
        retry: (failures, error) => failures < 1 && statusOf(error) !== 404,
      },
    },
  });
}

/**
 * Starts an app in the page: loads the runtime config, starts loading the session, and renders
 * `render(config)` under the query client. The shell uses it, and each remote's bootstrap.tsx to
 * run alone in development. When the page's server rendered it (its state is in the page), the
 * server's answers go into the query cache and its HTML is hydrated, not replaced, and the
 * failures its server saw while rendering it are this page's (issue 39, item 1): the browser
 * renders those parts afresh, and would otherwise count them nowhere. Either way the root reports
 * its errors with the one handler (rootErrors.ts).
 */
export async function mountApp(
  render: (config: RuntimeConfig) => ReactNode,
  rootId = 'root',
  options: {
    /** Before hydrating a server's HTML: makes ready what it was rendered with; false renders the page afresh instead. */
    hydrateWith?: (config: RuntimeConfig, server: ServerState) => Promise<boolean>;
  } = {},
): Promise<void> {
  const config = await loadRuntimeConfig();
  const element = document.getElementById(rootId);
  if (!element) throw new Error(`mountApp: no #${rootId} element`);
  const queryClient = createQueryClient();
  // A session's data goes with it (a logout, an expiry, a logout in another tab): nothing of it
  // shows again from the cache, on Back or on the next user's pages.
  sessionStore.subscribe((state, previous) => {
    if (previous.isLoggedIn && !state.isLoggedIn) queryClient.clear();
  });
  const server = element.hasChildNodes() ? serverStateInPage() : null;
  // The store started from the session the server rendered with (createSessionStore); this checks it.
  void sessionStore.getState().load();
  // The server's answers serve the page either way: the browser does not ask for them again.
  if (server) hydrateFromPage(queryClient, server.queries);
  for (const failure of server?.failures ?? []) reportPageError({ kind: 'server', ...failure });
  const hydrate = server !== null && (await (options.hydrateWith?.(config, server) ?? true));
  const tree = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <GlobalStyle />
        {render(config)}
      </QueryClientProvider>
    </StrictMode>
  );
  if (hydrate) hydrateRoot(element, tree, rootErrorHandlers);
  else createRoot(element, rootErrorHandlers).render(tree);
}
