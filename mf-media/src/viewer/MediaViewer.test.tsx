import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentItem, renderWithSession, videoItem } from '@marketplace/shared/test-utils';
import { MemoryRouter, Route, Routes, useLocation } from '@marketplace/shared';
import { MediaViewer, type MediaViewerProps } from './MediaViewer.js';
import { isVideo, wrap } from './media.js';

afterEach(() => vi.restoreAllMocks());

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** The viewer opened from a button, as a gallery opens it, so focus has somewhere to return. */
function Harness(props: Omit<MediaViewerProps, 'onClose' | 'startIndex'> & { startIndex?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open viewer
      </button>
      {open && <MediaViewer startIndex={0} {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

async function openViewer(props: Omit<MediaViewerProps, 'onClose' | 'startIndex'> & { startIndex?: number }) {
  renderWithSession(
    <MemoryRouter initialEntries={['/events']}>
      <Harness {...props} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Open viewer' }));
  return screen.getByRole('dialog');
}

const three = () => [contentItem({ name: 'First' }), contentItem({ name: 'Second' }), contentItem({ name: 'Third' })];

describe('media viewer', () => {
  it("is a full-screen dialog on an opaque black backdrop saying 'N of total'", async () => {
    const dialog = await openViewer({ items: three(), startIndex: 1 });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleName('Second');
    // Opaque: the page under the viewer does not show through.
    expect(dialog).toHaveStyle({ position: 'fixed', background: 'rgb(0, 0, 0)' });
    expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
  });

  it('previous and next wrap around', async () => {
    const dialog = await openViewer({ items: three() });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Previous' }));
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Third' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('1 of 3')).toBeInTheDocument();
  });

  it("keeps previous and next fixed to the screen's sides, whatever the width of the item shown", async () => {
    const items = [
      contentItem({ name: 'Wide', width: 1600, height: 400 }),
      contentItem({ name: 'Tall', width: 300, height: 1200 }),
    ];
    const dialog = await openViewer({ items });
    const previous = within(dialog).getByRole('button', { name: 'Previous' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    const fixedSides = () => {
      expect(previous).toHaveStyle({ position: 'fixed', left: '12px', top: '50%' });
      expect(next).toHaveStyle({ position: 'fixed', right: '12px', top: '50%' });
    };
    fixedSides();
    await userEvent.click(next);
    expect(within(dialog).getByRole('heading', { name: 'Tall' })).toBeInTheDocument();
    // The same buttons, in the same places: they are not laid out beside the item.
    expect(within(dialog).getByRole('button', { name: 'Previous' })).toBe(previous);
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBe(next);
    fixedSides();
  });

  it('a swipe leftwards on the item shows the next one and rightwards the previous; a short or vertical swipe does neither', async () => {
    const dialog = await openViewer({ items: three() });
    const media = within(dialog).getByTestId('viewer-media');
    const swipe = (from: [number, number], to: [number, number]) => {
      const target = media.querySelector('img') ?? media;
      fireEvent.pointerDown(target, { pointerId: 1, isPrimary: true, clientX: from[0], clientY: from[1] });
      fireEvent.pointerUp(target, { pointerId: 1, isPrimary: true, clientX: to[0], clientY: to[1] });
    };
    swipe([300, 200], [100, 210]);
    expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Second' })).toBeInTheDocument();
    swipe([100, 200], [300, 190]);
    swipe([100, 200], [300, 190]);
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    swipe([200, 200], [230, 200]);
    swipe([200, 100], [260, 400]);
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('ArrowRight and ArrowLeft navigate with wrap-around; Escape closes', async () => {
    const dialog = await openViewer({ items: three() });
    await userEvent.keyboard('{ArrowLeft}');
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the close button and a backdrop click close it; a click on the picture does not', async () => {
    let dialog = await openViewer({ items: three() });
    await userEvent.click(within(dialog).getByRole('img', { name: 'First' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    fireEvent.mouseDown(dialog);
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open viewer' }));
    dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves focus in, keeps Tab inside, and gives focus back on close', async () => {
    const dialog = await openViewer({ items: three() });
    // Once the open viewer has painted (focusing lays the page out).
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus());
    for (let i = 0; i < 8; i++) {
      await userEvent.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open viewer' })).toHaveFocus();
  });

  it('locks page scrolling while open and restores it after', async () => {
    document.body.style.overflow = 'scroll';
    await openViewer({ items: three() });
    expect(document.body.style.overflow).toBe('hidden');
    await userEvent.keyboard('{Escape}');
    expect(document.body.style.overflow).toBe('scroll');
    document.body.style.overflow = '';
  });

  it('links the event and the photographer; a photographer without profileName is plain text', async () => {
    const items = [
      contentItem({ name: 'Linked' }),
      contentItem({
        name: 'Guest',
        profileName: null,
        photographer: 'Guest Shooter',
        eventName: null,
        eventIdentifier: null,
      }),
    ];
    const dialog = await openViewer({ items });
    expect(within(dialog).getByRole('link', { name: 'Summer Jazz Night' })).toHaveAttribute(
      'href',
      '/event/summer-jazz-night-2026',
    );
    expect(within(dialog).getByRole('link', { name: 'Mia Lens' })).toHaveAttribute('href', '/user/mia');
    await userEvent.keyboard('{ArrowRight}');
    expect(within(dialog).getByText(/Guest Shooter/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('link')).toBeNull();
    await userEvent.keyboard('{ArrowLeft}');
    await userEvent.click(within(dialog).getByRole('link', { name: 'Mia Lens' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/user/mia');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows Add to cart and Download only when those capabilities are supplied', async () => {
    const items = [contentItem({ filePath: 'events/jazz/1.png', filename: '1.png' })];
    let dialog = await openViewer({ items });
    expect(within(dialog).queryByRole('button', { name: 'Add to cart' })).toBeNull();
    expect(within(dialog).queryByRole('link', { name: 'Download' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    document.body.innerHTML = '';

    const addToCart = vi.fn().mockResolvedValue('added');
    dialog = await openViewer({
      items,
      addToCart,
      downloadUrl: (i) => `http://files.test/download?filePath=${i.filePath}&fileName=${i.filename}`,
    });
    expect(within(dialog).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'http://files.test/download?filePath=events/jazz/1.png&fileName=1.png',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to cart' }));
    expect(await within(dialog).findByText('Added to cart')).toBeInTheDocument();
    expect(addToCart).toHaveBeenCalledWith(items[0]);
  });

  it('shows the price of an item for sale in its currency, and none for one that is not', async () => {
    const items = [
      contentItem({ name: 'Sellable', priceCents: 123456, currency: 'EUR' }),
      contentItem({ name: 'Not for sale', canAddToCart: false, priceCents: 900 }),
    ];
    const dialog = await openViewer({ items, addToCart: vi.fn() });
    expect(within(dialog).getByText('€1,234.56')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(dialog).getByRole('heading', { name: 'Not for sale' })).toBeInTheDocument();
    expect(within(dialog).queryByText('$9.00')).toBeNull();
    expect(within(dialog).queryByText(/[$€]\d/)).toBeNull();
  });

  it('offers Add to cart per item by the cart rule', async () => {
    const items = [contentItem({ name: 'Sellable' }), contentItem({ name: 'Not for sale', canAddToCart: false })];
    const dialog = await openViewer({ items, addToCart: vi.fn() });
    expect(within(dialog).getByRole('button', { name: 'Add to cart' })).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(dialog).queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it("shows a video for sale the reader has not bought as its poster's preview, with nothing to play, and its price", async () => {
    const poster = {
      width: 1280,
      height: 720,
      placeholder: '',
      sources: [],
      src: 'http://files.test/media/media/content/ci-9/a/1280.jpg',
    };
    const dialog = await openViewer({
      items: [videoItem({ name: 'Clip', contentUrl: '', locked: true, image: poster, priceCents: 4500 })],
    });
    expect(dialog.querySelector('video')).toBeNull();
    expect(within(dialog).getByRole('img', { name: 'Clip (preview)' })).toHaveAttribute('src', poster.src);
    expect(within(dialog).getByText('Preview: buy this video to watch it in full')).toBeInTheDocument();
    expect(within(dialog).getByText('$45.00')).toBeInTheDocument();
  });

  it('shows a video as a player, told apart by contentType or metadata, and Space plays and pauses it', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    const paused = vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockReturnValue(true);
    const items = [
      videoItem({ name: 'Clip', contentUrl: 'http://files.test/media/clip.mp4' }),
      contentItem({ name: 'Photo', contentType: '' }),
    ];
    const dialog = await openViewer({ items });
    const video = dialog.querySelector('video')!;
    expect(video).toHaveAttribute('src', 'http://files.test/media/clip.mp4');
    expect(video).toHaveAttribute('controls');
    play.mockClear();
    await userEvent.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);
    paused.mockReturnValue(false);
    await userEvent.keyboard(' ');
    expect(pause).toHaveBeenCalledTimes(1);
    // The dialog did not close or move: Space was the video's.
    expect(within(dialog).getByText('1 of 2')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}');
    expect(dialog.querySelector('video')).toBeNull();
    expect(within(dialog).getByRole('img', { name: 'Photo' })).toBeInTheDocument();
  });

  it('starts a video muted, playing, with the controls that turn its sound on', async () => {
    let mutedWhenPlayed: boolean | undefined;
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      mutedWhenPlayed = this.muted;
      return Promise.resolve();
    });
    const dialog = await openViewer({
      items: [videoItem({ name: 'Clip', contentUrl: 'http://files.test/media/clip.mp4' })],
    });
    const video = dialog.querySelector('video')!;
    await waitFor(() => expect(mutedWhenPlayed).toBe(true));
    expect(video.muted).toBe(true);
    expect(video).toHaveAttribute('controls');
  });

  it('never uses a source or link that is not http(s) or site-relative, and shows names as text', async () => {
    const items = [contentItem({ name: '<b>bold</b>', contentUrl: 'javascript:alert(1)' })];
    const dialog = await openViewer({ items, downloadUrl: () => 'javascript:alert(2)' });
    expect(within(dialog).queryByRole('img')).toBeNull();
    expect(within(dialog).queryByRole('link', { name: 'Download' })).toBeNull();
    expect(within(dialog).getByRole('heading', { name: '<b>bold</b>' })).toBeInTheDocument();
    expect(dialog.querySelector('b')).toBeNull();
  });
});

describe('media helpers', () => {
  it('tells videos from images by contentType, then by metadata', () => {
    expect(isVideo({ contentType: 'video/mp4', metadata: { 'Content-Type': 'image/png' } })).toBe(true);
    expect(isVideo({ contentType: 'image/png', metadata: { 'Content-Type': 'video/mp4' } })).toBe(false);
    expect(isVideo({ contentType: '', metadata: { 'Content-Type': 'video/quicktime' } })).toBe(true);
    expect(isVideo({ contentType: '', metadata: { 'Content-Type': 'image/jpeg' } })).toBe(false);
  });

  it('wraps indexes around both ends', () => {
    expect([wrap(-1, 3), wrap(3, 3), wrap(4, 3), wrap(0, 1)]).toEqual([2, 0, 1, 0]);
  });
});
