import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createGlobalStyle } from 'styled-components';
import { statusOf } from '../api/client.js';
import { loadRuntimeConfig, type RuntimeConfig } from '../config/runtime.js';
import { DATA_CACHE_TIME_MS } from '../constants.js';
import { sessionStore } from '../session/store.js';
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
 * `render(config)` under the query client. The shell uses it, and each remote's bootstrap.tsx
 * to run alone in development.
 */
export async function mountApp(render: (config: RuntimeConfig) => ReactNode, rootId = 'root'): Promise<void> {
  const config = await loadRuntimeConfig();
  void sessionStore.getState().load();
  const element = document.getElementById(rootId);
  if (!element) throw new Error(`mountApp: no #${rootId} element`);
  createRoot(element).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <GlobalStyle />
        {render(config)}
      </QueryClientProvider>
    </StrictMode>,
  );
}
