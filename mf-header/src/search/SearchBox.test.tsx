import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, type SearchResult } from '@marketplace/shared';
import { API, renderHeader, resetHarness, sentTo, server } from '../test/harness.js';
import { leaveApp } from '../useFollow.js';
import { useDebounced } from './useSearch.js';

afterEach(() => {
  resetHarness();
  window.sessionStorage.clear();
});

const RESULTS: Record<string, SearchResult[]> = {
  sum: [
    { name: 'Summer Festival 2026', iconUrl: null, urlLink: '/event/summer-festival-2026' },
    { name: 'Summit Run', iconUrl: null, urlLink: '/event/summit-run' },
  ],
  nora: [{ name: 'Nora Lind', iconUrl: 'http://files.test/media/nora.jpg', urlLink: '/user/nora' }],
};

/** Answers from RESULTS; a query listed in `held` answers once the test resolves its promise. */
function serveSearch(held: Record<string, Promise<void>> = {}) {
  server.use(
    http.get(`${API}/search`, async ({ request }) => {
      const query = new URL(request.url).searchParams.get('query') ?? '';
      await held[query];
      return HttpResponse.json({ searchResults: RESULTS[query] ?? [] });
    }),
  );
}

const box = () => screen.getByRole('combobox', { name: 'Search' });
const options = () => within(screen.getByRole('listbox', { name: 'Search results' })).getAllByRole('option');

describe('useDebounced', () => {
  it('settles 100 ms after the last change, not before', () => {
    vi.useFakeTimers();
    try {
      const { result, rerender } = renderHook(({ v }) => useDebounced(v, 100), { initialProps: { v: 's' } });
      rerender({ v: 'su' });
      act(() => vi.advanceTimersByTime(60));
      rerender({ v: 'sum' });
      act(() => vi.advanceTimersByTime(99));
      expect(result.current).toBe('s');
      act(() => vi.advanceTimersByTime(1));
      expect(result.current).toBe('sum');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('search box', () => {
  it("has the spec's placeholder and lists results with name, icon and link", async () => {
    serveSearch();
    renderHeader();
    expect(box()).toHaveAttribute('placeholder', 'Search for people or events...');
    await userEvent.type(box(), 'nora');
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]).toHaveTextContent('Nora Lind');
    expect(options()[0]!.querySelector('img')).toHaveAttribute('src', 'http://files.test/media/nora.jpg');
  });

  it('asks the server once for quickly typed text, with the whole query', async () => {
    serveSearch();
    renderHeader();
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(sentTo('/search').map((r) => r.query.get('query'))).toEqual(['sum']);
  });

  it('an empty query clears the results and asks nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      serveSearch();
      renderHeader();
      await user.type(box(), 'sum');
      await waitFor(() => expect(options()).toHaveLength(2));
      await user.clear(box());
      expect(screen.queryByRole('listbox')).toBeNull();
      // The empty text settles past the debounce; then a query typed afterwards is answered, so
      // anything the empty one sent would already be listed before it.
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
      expect(screen.queryByRole('listbox')).toBeNull();
      await user.type(box(), 'nora');
      await waitFor(() => expect(options()).toHaveLength(1));
      expect(sentTo('/search').map((r) => r.query.get('query'))).toEqual(['sum', 'nora']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('arrow keys move the selection and wrap back to the typed text', async () => {
    serveSearch();
    renderHeader();
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    const selected = () => options().findIndex((o) => o.getAttribute('aria-selected') === 'true');

    await userEvent.keyboard('{ArrowDown}');
    expect(selected()).toBe(0);
    expect(box()).toHaveValue('Summer Festival 2026');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[0]!.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(selected()).toBe(1);
    await userEvent.keyboard('{ArrowDown}');
    expect(selected()).toBe(-1);
    expect(box()).toHaveValue('sum');
    await userEvent.keyboard('{ArrowUp}');
    expect(selected()).toBe(1);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(selected()).toBe(-1);
    expect(box()).toHaveValue('sum');
  });

  it('Enter follows the selected result', async () => {
    serveSearch();
    renderHeader();
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent('/event/summit-run');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('Enter with no result chosen opens the results page for the typed text', async () => {
    serveSearch();
    renderHeader('/events');
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/search\?q=sum$/);
    expect(screen.queryByRole('listbox')).toBeNull();
    // The text stays in the box, to search again from.
    expect(box()).toHaveValue('sum');
  });

  it('Enter on text the server finds nothing for opens the results page too, spaces and symbols kept whole', async () => {
    serveSearch();
    renderHeader('/events');
    await userEvent.type(box(), ' rock & roll ');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/search\?q=rock\+%26\+roll$/);
  });

  it('Enter in an empty box goes nowhere', async () => {
    serveSearch();
    renderHeader('/events');
    await userEvent.click(box());
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/events$/);
  });

  it("says 'No results for “…”' when the server finds nothing, and not while results show", async () => {
    let answerZzz!: () => void;
    serveSearch({ zzz: new Promise<void>((resolve) => (answerZzz = resolve)) });
    renderHeader();
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(screen.queryByText(/No results/)).toBeNull();
    await userEvent.clear(box());
    await userEvent.type(box(), 'zzz');
    // While the answer is on its way, nothing is said yet.
    expect(screen.queryByText(/No results/)).toBeNull();
    await waitFor(() => expect(sentTo('/search').map((r) => r.query.get('query'))).toEqual(['sum', 'zzz']));
    expect(screen.queryByText(/No results/)).toBeNull();
    answerZzz();
    expect(await screen.findByText('No results for “zzz”')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByText(/No results/)).toBeNull();
  });

  it('clicking a result follows it', async () => {
    serveSearch();
    renderHeader();
    await userEvent.type(box(), 'nora');
    await waitFor(() => expect(options()).toHaveLength(1));
    await userEvent.click(options()[0]!);
    expect(screen.getByTestId('where')).toHaveTextContent('/user/nora');
  });

  it('never follows a result whose link is not http(s) or site-relative', async () => {
    const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
    server.use(
      http.get(`${API}/search`, () =>
        HttpResponse.json({ searchResults: [{ name: 'Trap', iconUrl: null, urlLink: 'javascript:alert(1)' }] }),
      ),
    );
    renderHeader('/events');
    await userEvent.type(box(), 'trap');
    await waitFor(() => expect(options()).toHaveLength(1));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/events$/);
    expect(leave).not.toHaveBeenCalled();
    leave.mockRestore();
  });

  it('clicking elsewhere closes the list, and Escape does too', async () => {
    serveSearch();
    renderHeader();
    await userEvent.type(box(), 'sum');
    await waitFor(() => expect(options()).toHaveLength(2));
    await userEvent.click(screen.getByTestId('where'));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(box());
    expect(options()).toHaveLength(2);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it("a slow answer to an older query never replaces a newer query's results", async () => {
    let answerSu!: () => void;
    serveSearch({ su: new Promise<void>((resolve) => (answerSu = resolve)) });
    RESULTS.su = [{ name: 'Stale result', iconUrl: null, urlLink: '/event/stale' }];
    try {
      const { client } = renderHeader();
      await userEvent.type(box(), 'su');
      await waitFor(() => expect(sentTo('/search')).toHaveLength(1));
      await userEvent.type(box(), 'm');
      await waitFor(() => expect(options()).toHaveLength(2));
      // The slow answer for 'su' arrives and is taken in: nothing is loading any more.
      answerSu();
      await waitFor(() => expect(client.isFetching()).toBe(0));
      await act(async () => undefined);
      expect(options().map((o) => o.textContent)).toEqual(['Summer Festival 2026', 'Summit Run']);
      expect(screen.queryByText('Stale result')).toBeNull();
    } finally {
      delete RESULTS.su;
    }
  });
});

describe('search text through a remount (the shell switching the header to another version)', () => {
  it('is still in the box when the header mounts again', async () => {
    serveSearch();
    const first = renderHeader();
    await userEvent.type(box(), 'sum');
    first.unmount();
    renderHeader();
    expect(box()).toHaveValue('sum');
    await userEvent.click(box());
    await waitFor(() => expect(options()).toHaveLength(2));
  });

  it('is gone once a result has been followed', async () => {
    serveSearch();
    const first = renderHeader();
    await userEvent.type(box(), 'nora');
    await waitFor(() => expect(options()).toHaveLength(1));
    await userEvent.click(options()[0]!);
    expect(box()).toHaveValue('');
    first.unmount();
    renderHeader();
    expect(box()).toHaveValue('');
  });

  it('is gone once the box has been cleared', async () => {
    serveSearch();
    const first = renderHeader();
    await userEvent.type(box(), 'sum');
    await userEvent.clear(box());
    first.unmount();
    renderHeader();
    expect(box()).toHaveValue('');
  });
});
