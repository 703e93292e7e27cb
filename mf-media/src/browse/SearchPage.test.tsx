import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithQuery, useMswServer } from '@marketplace/shared/test-utils';
import { MemoryRouter, PAGES, Route, Routes, type SearchResult } from '@marketplace/shared';
import { SearchPage } from './SearchPage.js';

const API = 'http://api.test/v2';
const server = useMswServer();

const RESULTS: SearchResult[] = [
  { name: 'Sumi Park', iconUrl: 'http://files.test/media/avatars/sumi.png', urlLink: '/user/sumi' },
  { name: 'Summit Nobody', iconUrl: null, urlLink: '/user/nobody' },
  {
    name: 'Summer Jazz Night',
    iconUrl: 'http://files.test/media/media/cover/summer/r/1280.jpg',
    urlLink: '/event/summer-jazz-night-2026',
  },
  {
    name: 'Summer crowd',
    iconUrl: 'http://files.test/media/events/summer/photo-002-thumb.png',
    urlLink: '/event/summer-jazz-night-2026?photo=ci-photo-002',
  },
];

/** Answers `sum` with RESULTS and anything else with nothing; returns the queries asked. */
function serveSearch(): string[] {
  const asked: string[] = [];
  server.use(
    http.get(`${API}/search`, ({ request }) => {
      const query = new URL(request.url).searchParams.get('query') ?? '';
      asked.push(query);
      return HttpResponse.json({ searchResults: query === 'sum' ? RESULTS : [] });
    }),
  );
  return asked;
}

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={PAGES.search.path} element={<SearchPage />} />
      </Routes>
    </MemoryRouter>,
  );

describe('search results page', () => {
  it('lists the events, photos and people found for ?q=, each with its picture and link', async () => {
    const asked = serveSearch();
    renderAt('/search?q=%20sum%20');
    expect(await screen.findByRole('heading', { name: 'Results for “sum”', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Events' })).toBeInTheDocument();
    expect(asked).toEqual(['sum']);

    const card = (section: string, name: string) =>
      within(screen.getByRole('region', { name: section }))
        .getByRole('heading', { name, level: 3 })
        .closest('li') as HTMLElement;
    const event = card('Events', 'Summer Jazz Night');
    expect(within(event).getByRole('link')).toHaveAttribute('href', '/event/summer-jazz-night-2026');
    expect(event.querySelector('img')).toHaveAttribute('src', RESULTS[2]!.iconUrl);

    const photo = card('Photos and videos', 'Summer crowd');
    expect(within(photo).getByRole('link')).toHaveAttribute('href', '/event/summer-jazz-night-2026?photo=ci-photo-002');
    expect(photo.querySelector('img')).toHaveAttribute('src', RESULTS[3]!.iconUrl);

    const person = card('People', 'Sumi Park');
    expect(within(person).getByRole('link')).toHaveAttribute('href', '/user/sumi');
    expect(person.querySelector('img')).toHaveAttribute('src', RESULTS[0]!.iconUrl);
    // A person without a picture shows the generic one.
    expect(card('People', 'Summit Nobody').querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  });

  it("says 'No results for “…”' when nothing matches", async () => {
    serveSearch();
    renderAt('/search?q=zzz');
    expect(await screen.findByText('No results for “zzz”')).toBeInTheDocument();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('without a query asks nothing and says what to do', async () => {
    const asked = serveSearch();
    const { client } = renderAt('/search');
    expect(screen.getByRole('heading', { name: 'Search', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Type what you are looking for/)).toBeInTheDocument();
    // A read starts in the render that asks for it (isFetching), before its request lands: none has.
    expect(client.isFetching()).toBe(0);
    await act(async () => undefined);
    expect(client.isFetching()).toBe(0);
    expect(asked).toEqual([]);
  });

  it("is in the platform's pages at /search, owned by this remote, loading the same search the page reads", () => {
    expect([PAGES.search.path, PAGES.search.remote, PAGES.search.module]).toEqual(['/search', 'media', 'SearchPage']);
    expect(PAGES.search.calls({ pathname: '/search', search: '?q=%20sum%20' })).toEqual([
      expect.objectContaining({ name: 'search', request: { query: 'sum' } }),
    ]);
    expect(PAGES.search.calls({ pathname: '/search', search: '' })).toEqual([]);
  });
});
