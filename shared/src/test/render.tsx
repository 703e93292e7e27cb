import { readdirSync } from 'node:fs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

/** Renders a remote's component as the shell would: under a fresh query client (no retries in tests). */
export function renderWithQuery(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The client too: whether a read is under way shows at once (isFetching), before its request lands.
  return { ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>), client };
}

/** The file names (without `.tsx`) in a remote's `exposes/` folder, sorted: what its build publishes. */
export function exposesFolder(folder: string): string[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => f.slice(0, -'.tsx'.length))
    .sort();
}
