import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { headStore, Link, MemoryRouter, Modal, Route, Routes, useNavigate, usePageHead } from '@marketplace/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { PageHeadAndAnnouncer } from './PageHead.js';

const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content');

/** An event page as a remote renders it: its heading and its own title arrive with its data. */
function EventPage() {
  const [loaded, setLoaded] = useState(false);
  usePageHead(loaded ? { title: 'Summer Jazz Night', description: 'Jazz by the river.' } : null);
  return loaded ? (
    <h1>Summer Jazz Night</h1>
  ) : (
    <button type="button" onClick={() => setLoaded(true)}>
      data arrives
    </button>
  );
}

function Nav() {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState(false);
  return (
    <nav>
      <Link to="/events">to events</Link>
      <Link to="/event/summer-jazz-night-2026">to the event</Link>
      <Link to="/events?page=2">next page</Link>
      <button type="button" onClick={() => setDialog(true)}>
        open dialog
      </button>
      <button type="button" onClick={() => navigate('/faq')}>
        to faq
      </button>
      {dialog && (
        <Modal title="Chat" onClose={() => setDialog(false)}>
          <p>chatting</p>
        </Modal>
      )}
    </nav>
  );
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <PageHeadAndAnnouncer />
      <Nav />
      <main>
        <Routes>
          <Route path="/events" element={<h1>Events</h1>} />
          <Route path="/faq" element={<h1>Frequently asked questions</h1>} />
          <Route path="/event/:id" element={<EventPage />} />
          <Route path="*" element={<h1>Page not found</h1>} />
        </Routes>
      </main>
    </MemoryRouter>,
  );
}

const announcer = () => screen.getByTestId('route-announcer');
/**
 * The next animation frame, once the browser has run it: an announcement is made in a frame asked
 * for once the heading is there, and frames run in the order they were asked for, so one asked
 * before this would have been made by now.
 */
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

afterEach(() => headStore.setState({ route: null, page: null }));

describe('the page head and navigation announcements', () => {
  it("titles each page from the platform table, and a page about one thing by that thing's name once loaded", async () => {
    renderAt('/events');
    await waitFor(() => expect(document.title).toBe('Events · EventMedia'));
    expect(description()).toMatch(/Browse upcoming events/);

    await act(() => screen.getByRole('link', { name: 'to the event' }).click());
    await waitFor(() => expect(document.title).toBe('Event · EventMedia'));
    await act(() => screen.getByRole('button', { name: 'data arrives' }).click());
    await waitFor(() => expect(document.title).toBe('Summer Jazz Night · EventMedia'));
    expect(description()).toBe('Jazz by the river.');
  });

  it('says "Page not found" where the table has no page', async () => {
    renderAt('/no/such/page');
    await waitFor(() => expect(document.title).toBe('Page not found · EventMedia'));
  });

  it('announces nothing and leaves focus alone on the first load', async () => {
    renderAt('/events');
    await waitFor(() => expect(document.title).toBe('Events · EventMedia'));
    await nextFrame();
    expect(announcer()).toHaveTextContent('');
    expect(document.activeElement).toBe(document.body);
  });

  it("after a client navigation, says the new page's title and moves focus to its main heading once it is there", async () => {
    renderAt('/events');
    await act(() => screen.getByRole('button', { name: 'to faq' }).click());
    await waitFor(() => expect(announcer()).toHaveTextContent('Frequently asked questions'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Frequently asked questions' }));

    await act(() => screen.getByRole('link', { name: 'to the event' }).click());
    await nextFrame();
    expect(announcer()).toHaveTextContent('');
    await act(() => screen.getByRole('button', { name: 'data arrives' }).click());
    await waitFor(() => expect(announcer()).toHaveTextContent('Summer Jazz Night'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Summer Jazz Night' }));
  });

  it('does nothing when only the query string changes', async () => {
    renderAt('/faq');
    await act(() => screen.getByRole('link', { name: 'to events' }).click());
    await waitFor(() => expect(announcer()).toHaveTextContent('Events'));
    const link = screen.getByRole('link', { name: 'next page' });
    link.focus();
    await act(() => link.click());
    await nextFrame();
    expect(document.activeElement).toBe(link);
  });

  it('keeps the focus where it is while a dialog is open', async () => {
    renderAt('/events');
    await act(() => screen.getByRole('button', { name: 'open dialog' }).click());
    const dialog = screen.getByRole('dialog');
    await act(() => screen.getByRole('button', { name: 'to faq' }).click());
    await waitFor(() => expect(document.title).toBe('Frequently asked questions · EventMedia'));
    await nextFrame();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(announcer()).toHaveTextContent('');
  });
});
