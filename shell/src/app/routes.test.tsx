import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, PAGE_LIST, Routes, Route } from '@marketplace/shared';
import { ROUTES, routeElement } from './routes.js';

// The remotes are the network edge here: each exposed module loaded is recorded and stands in
// as a component that shows which module it is and the props it got.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('../remotes/federation.js', () => ({
  loadRemoteModule: (id: string) => {
    loaded.push(id);
    return Promise.resolve({
      default: (props: object) => <p data-testid="page">{`${id} ${JSON.stringify(props)}`}</p>,
    });
  },
}));
// The API is the network edge too: the calls the pages' loaders send are recorded.
const sent: string[] = [];
vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
  sent.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
  return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
});
afterEach(() => {
  loaded.length = 0;
  sent.length = 0;
});

/** A URL of the page: each `:param` filled in. */
const urlOf = (path: string) => path.replace(/:\w+/g, 'someone');

describe("the shell's routes", () => {
  it.each(PAGE_LIST.map((p) => [p.key, p] as const))(
    'give the table page %s a route rendering its remote module with its props',
    async (_key, page) => {
      const client = new QueryClient();
      render(
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[urlOf(page.path)]}>
            <Routes>
              {ROUTES.map((entry) => (
                <Route key={entry.path} path={entry.path} element={routeElement(entry)} />
              ))}
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>,
      );
      const props = page.slot((_remote, _module, p) => JSON.stringify(p));
      expect(await screen.findByTestId('page')).toHaveTextContent(`${page.remote}/${page.module} ${props}`);
      expect(loaded).toEqual([`${page.remote}/${page.module}`]);
      // Its loader's calls, sent by the route itself (the stand-in module asks for nothing).
      const calls = page.calls({ pathname: urlOf(page.path), search: '' });
      expect(sent).toHaveLength(calls.length);
      for (const call of calls) expect(client.getQueryCache().find({ queryKey: call.queryKey })).toBeDefined();
    },
  );
});
