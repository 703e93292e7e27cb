import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { Suspense, use } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentItem, renderWithSession, useMswServer } from '@marketplace/shared/test-utils';
import {
  type ContentItem,
  type EventSummary,
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  useNavigate,
} from '@marketplace/shared';
import { ContentGrid } from '../browse/ContentGrid.js';
import { EventPage } from '../browse/EventPage.js';

const API = 'http://api.test/v2';
const server = useMswServer();
afterEach(() => vi.restoreAllMocks());

const event: EventSummary = {
  eventIdentifier: 'summer-jazz-night-2026',
  name: 'Summer Jazz Night',
  description: 'Open-air jazz.',
  location: 'Harbour',
  startsAt: '2026-07-01T18:00:00.000Z',
  coverUrl: null,
  cover: null,
  organizer: 'Olga Events',
  organizerProfileName: 'olga',
  itemCount: 3,
};
const items = [
  contentItem({ name: 'Stage', contentIdentifier: 'ci-stage' }),
  contentItem({ name: 'Crowd', contentIdentifier: 'ci-crowd' }),
  contentItem({ name: 'Encore', contentIdentifier: 'ci-encore' }),
];

/** Where the router is, and a Back button standing in for the browser's. */
let back: () => void = () => undefined;
function Where() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  back = () => void navigate(-1);
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}
const where = () => screen.getByTestId('where').textContent;

function renderEventPage(path: string) {
  server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event, contentItems: items })));
  return renderWithSession(
    <MemoryRouter initialEntries={['/events', path]} initialIndex={1}>
      <Routes>
        <Route path="/event/:eventIdentifier" element={<EventPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('an address per photo in the viewer', () => {
  it('opening a photo adds ?photo= to the address, and Back closes the viewer on the gallery', async () => {
    renderEventPage('/event/summer-jazz-night-2026');
    const gallery = await screen.findByRole('list', { name: 'Gallery' });
    await userEvent.click(within(gallery).getByRole('button', { name: 'Open Crowd' }));
    expect(screen.getByRole('dialog', { name: 'Crowd' })).toBeInTheDocument();
    // The address follows once the viewer has painted.
    await waitFor(() => expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-crowd'));

    act(() => back());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');
    // One step back closed it: the page before the gallery is still one more step away.
    act(() => back());
    expect(where()).toBe('/events');
  });

  it("opens the viewer in the press's own render, not once the page for the new address is rendered", async () => {
    // The router renders a navigation as a transition; here that render waits (a part of the
    // page suspended at the new address) and the page stays as it was until it is done.
    const never = new Promise<never>(() => undefined);
    function HeldAtPhoto() {
      const { search } = useLocation();
      if (search.includes('photo=')) use(never);
      return null;
    }
    server.use(http.get(`${API}/events/:id`, () => HttpResponse.json({ event, contentItems: items })));
    renderWithSession(
      <MemoryRouter initialEntries={['/event/summer-jazz-night-2026']}>
        <Routes>
          <Route path="/event/:eventIdentifier" element={<EventPage />} />
        </Routes>
        <Suspense fallback={null}>
          <HeldAtPhoto />
        </Suspense>
        <Where />
      </MemoryRouter>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Open Crowd' }));
    expect(screen.getByRole('dialog', { name: 'Crowd' })).toBeInTheDocument();
    expect(where()).toBe('/event/summer-jazz-night-2026');
  });

  it('moving to another photo names it in the same history entry, so Back still closes the viewer', async () => {
    renderEventPage('/event/summer-jazz-night-2026');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Stage' }));
    // The entry is added once the viewer has painted, a frame after the press.
    await waitFor(() => expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-stage'));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Crowd' })).toBeInTheDocument();
    expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-crowd');
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-encore');

    act(() => back());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');
  });

  it('Escape and the close button step back over the entry the viewer added', async () => {
    renderEventPage('/event/summer-jazz-night-2026');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Encore' }));
    await waitFor(() => expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-encore'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Open Stage' }));
    await waitFor(() => expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-stage'));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(where()).toBe('/event/summer-jazz-night-2026');
    act(() => back());
    expect(where()).toBe('/events');
  });

  it('the address follows after the press; moving on or closing before it lands is what it names', async () => {
    renderEventPage('/event/summer-jazz-night-2026');
    const open = await screen.findByRole('button', { name: 'Open Stage' });
    // The press opens the viewer; the history entry is added once that has painted.
    act(() => open.click());
    expect(screen.getByRole('dialog', { name: 'Stage' })).toBeInTheDocument();
    expect(where()).toBe('/event/summer-jazz-night-2026');
    // Moved on before the entry was added: the entry names the photo shown.
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(screen.getByRole('dialog', { name: 'Crowd' })).toBeInTheDocument();
    await waitFor(() => expect(where()).toBe('/event/summer-jazz-night-2026?photo=ci-crowd'));
    act(() => back());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');

    // Closed before the entry was added: none is added, and Back leaves the gallery. The frames
    // and timers are the test's, run past the latest the work after a paint may wait (a second).
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'] });
    try {
      act(() => screen.getByRole('button', { name: 'Open Encore' }).click());
      fireEvent.keyDown(window, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      act(() => vi.advanceTimersByTime(2000));
    } finally {
      vi.useRealTimers();
    }
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');
    act(() => back());
    expect(where()).toBe('/events');
  });

  it('a shared link with ?photo= opens the viewer on that photo; closing it leaves the gallery at the address without it', async () => {
    renderEventPage('/event/summer-jazz-night-2026?photo=ci-encore');
    const dialog = await screen.findByRole('dialog', { name: 'Encore' });
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/event/summer-jazz-night-2026');
    expect(screen.getByRole('list', { name: 'Gallery' })).toBeInTheDocument();
    // Replaced, not stepped back over: the page the link was opened from is still there.
    act(() => back());
    expect(where()).toBe('/events');
  });

  it('an address naming no photo of the gallery opens nothing', async () => {
    renderEventPage('/event/summer-jazz-night-2026?photo=ci-elsewhere');
    expect(await screen.findByRole('list', { name: 'Gallery' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a page rendered on the server with ?photo= renders the gallery without the viewer, and opens it once hydrated', async () => {
    const errors = vi.spyOn(console, 'error');
    const tree = (gallery: ContentItem[]) => (
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/event/summer-jazz-night-2026?photo=ci-crowd']}>
          <ContentGrid items={gallery} />
        </MemoryRouter>
      </QueryClientProvider>
    );
    const html = renderToString(tree(items));
    expect(html).toContain('Open Crowd');
    expect(html).not.toContain('role="dialog"');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const root = await act(async () => hydrateRoot(container, tree(items)));
    expect(within(container).getByRole('dialog', { name: 'Crowd' })).toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});
