import { useEffect, useId, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import styled from 'styled-components';
import {
  type ContentItem,
  IconButton,
  Link,
  Picture,
  PAGES,
  safeHref,
  theme,
  useDialogFocus,
  usePreparedStyles,
  useScrollLock,
} from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { VideoPreview } from '@marketplace/shared/video';
import { AddToCartButton, type AddToCart } from '../cart/AddToCart.js';
import { isVideo, wrap } from './media.js';
import { LockedVideo } from '../browse/LockedVideo.js';
import { ItemPrice, Processing } from '../browse/ui.js';

const Overlay = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1100;
  display: flex;
  flex-direction: column;
  /* Opaque: the page under it does not show through. */
  background: #000;
  color: #fff;
  font-family: ${theme.font};
  .bar {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: 12px 16px;
  }
  .stage {
    flex: 1;
    min-height: 0;
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 12px;
    padding: 0 12px;
  }
  /* Previous and next stay at the screen's sides, wherever the item's width puts its edges. */
  .nav {
    position: fixed;
    top: 50%;
    transform: translateY(-50%);
    z-index: 1;
  }
  .nav.previous {
    left: 12px;
  }
  .nav.next {
    right: 12px;
  }
  .media {
    /* A horizontal swipe is the viewer's (next, previous); vertical panning and zoom stay the browser's. */
    touch-action: pan-y pinch-zoom;
    max-width: min(1100px, calc(100vw - 140px));
    max-height: calc(100vh - 200px);
    display: flex;
    justify-content: center;
  }
  .media img,
  .media video {
    max-width: 100%;
    max-height: calc(100vh - 200px);
    object-fit: contain;
  }
  .media > div {
    width: min(900px, calc(100vw - 140px));
    aspect-ratio: 16 / 9;
  }
  .info {
    padding: 12px 16px 20px;
    text-align: center;
  }
  .info h2 {
    margin: 0 0 4px;
    font-size: 18px;
  }
  .info p {
    margin: 4px 0;
  }
  .info a {
    color: #9cc8ff;
  }
  .actions {
    display: flex;
    gap: 16px;
    justify-content: center;
    align-items: center;
    margin-top: 8px;
  }
  .actions [role='status'] {
    background: #fff;
    padding: 2px 8px;
    border-radius: 4px;
  }
`;

/** The viewer's frame and controls as they first show. */
const VIEWER_STYLES = (
  <Overlay>
    <IconButton label="" tone="inverse" size={44}>
      ×
    </IconButton>
  </Overlay>
);

/**
 * For a page that can open the viewer: its styles are made while the page is idle, so the press
 * that first opens it does not wait for them.
 */
export function usePreparedViewer(): void {
  usePreparedStyles(VIEWER_STYLES);
}

export interface MediaViewerProps {
  items: ContentItem[];
  /** The item shown first. */
  startIndex: number;
  onClose: () => void;
  /** Supplying it adds the Add to cart button (for items the cart rule allows). */
  addToCart?: AddToCart;
  /** Supplying it adds the Download link. */
  downloadUrl?: (item: ContentItem) => string;
  /** Told the index of the item shown whenever it changes (the page's address per photo). */
  onIndexChange?: (index: number) => void;
  /**
   * Called, in place of `onClose`, when a link in the viewer (the event, the photographer) is
   * followed: a viewer kept in the page's address is closed by the link's own navigation.
   */
  onFollowLink?: () => void;
}

/** How far (px) a finger or pointer travels sideways on the item for a swipe to move on. */
export const SWIPE_THRESHOLD = 50;

/**
 * SPEC.md section 2 "Media viewer": a full-screen dialog, one item at a time with wrap-around,
 * keyboard control, and page scrolling locked while open. Its backdrop is opaque black (the spec's
 * is see-through: the page showed through it), previous and next are fixed to the screen's sides, a
 * sideways swipe on the item moves on, and a video starts muted (its controls turn the sound on).
 */
export function MediaViewer({
  items,
  startIndex,
  onClose,
  addToCart,
  downloadUrl,
  onIndexChange,
  onFollowLink = onClose,
}: MediaViewerProps) {
  const [index, setIndex] = useState(() => wrap(startIndex, items.length));
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useScrollLock();
  const trapTab = useDialogFocus(panel, 'button[aria-label="Close"]');
  const total = items.length;
  const item = items[wrap(index, total)];
  const video = item ? isVideo(item) : false;

  const shown = wrap(index, total);
  const reported = useRef(shown);
  const latestOnIndexChange = useRef(onIndexChange);
  latestOnIndexChange.current = onIndexChange;
  useEffect(() => {
    if (reported.current === shown) return;
    reported.current = shown;
    latestOnIndexChange.current?.(shown);
  }, [shown]);

  // Where a swipe started: a pointer (finger, pen or mouse) down on the item.
  const swipe = useRef<{ id: number; x: number; y: number } | null>(null);
  const swipeEnd = (e: ReactPointerEvent) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (Math.abs(dx) < SWIPE_THRESHOLD || Math.abs(dx) <= Math.abs(dy)) return;
    // Leftwards brings the next item in, as a finger pushes the page aside.
    setIndex((i) => wrap(dx < 0 ? i + 1 : i - 1, total));
  };

  // Keys act wherever focus is inside the page while the viewer is open.
  const latest = useRef({ total, video, onClose });
  latest.current = { total, video, onClose };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { total, video, onClose } = latest.current;
      if (e.key === 'ArrowRight') setIndex((i) => wrap(i + 1, total));
      else if (e.key === 'ArrowLeft') setIndex((i) => wrap(i - 1, total));
      else if (e.key === 'Escape') onClose();
      else if (e.key === ' ' && video) {
        // Space plays and pauses the video instead of pressing the focused button or scrolling.
        e.preventDefault();
        const el = panel.current?.querySelector('video');
        if (el) void (el.paused ? el.play()?.catch(() => undefined) : el.pause());
      } else return;
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  if (!item) return null;
  const src = safeHref(item.contentUrl);
  const download = downloadUrl ? safeHref(downloadUrl(item)) : null;
  const eventLink = item.eventIdentifier ? PAGES.event.href({ eventIdentifier: item.eventIdentifier }) : null;

  return (
    <Overlay
      ref={panel}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="media-viewer"
      onKeyDown={trapTab}
      // The backdrop is the overlay and the empty stage around the media (not the media or controls).
      onMouseDown={(e) => {
        if (e.target === e.currentTarget || (e.target as HTMLElement).dataset.backdrop !== undefined) onClose();
      }}
    >
      <div className="bar" data-backdrop="">
        <span aria-live="polite">
          {wrap(index, total) + 1} of {total}
        </span>
        <IconButton label="Close" tone="inverse" size={44} onClick={onClose}>
          ×
        </IconButton>
      </div>
      <div className="stage" data-backdrop="">
        <IconButton
          className="nav previous"
          label="Previous"
          tone="inverse"
          size={44}
          onClick={() => setIndex((i) => wrap(i - 1, total))}
        >
          ‹
        </IconButton>
        <div
          className="media"
          data-backdrop=""
          data-testid="viewer-media"
          onPointerDown={(e) => {
            if (e.isPrimary !== false) swipe.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
          }}
          onPointerUp={swipeEnd}
          onPointerCancel={() => {
            swipe.current = null;
          }}
        >
          {video && item.locked ? (
            <LockedVideo
              key={item.contentIdentifier}
              item={item}
              sizes="min(1100px, 100vw)"
              priority="eager"
              label="Preview: buy this video to watch it in full"
            />
          ) : video ? (
            <VideoPreview
              key={item.contentIdentifier}
              url={item.contentUrl}
              thumbnailUrl={item.thumbnailUrl}
              useThumbnail={false}
              playWhileHovering={false}
              controls
              // Started without a gesture of its own, so muted (browsers refuse sound then); its controls unmute it.
              muted
              autoplay
            />
          ) : item.image ? (
            // The width the screen needs, from the sizes made (1920 on a large screen), shown whole.
            <Picture
              key={item.contentIdentifier}
              image={item.image}
              alt={item.name}
              sizes="min(1100px, 100vw)"
              priority="eager"
              style={{ objectFit: 'contain', width: 'auto', height: 'auto' }}
            />
          ) : item.processing ? (
            <Processing key={item.contentIdentifier}>Processing…</Processing>
          ) : (
            src && <img key={item.contentIdentifier} src={src} alt={item.name} />
          )}
        </div>
        <IconButton
          className="nav next"
          label="Next"
          tone="inverse"
          size={44}
          onClick={() => setIndex((i) => wrap(i + 1, total))}
        >
          ›
        </IconButton>
      </div>
      <div className="info" data-backdrop="">
        <h2 id={titleId}>{item.name}</h2>
        {item.eventName && (
          <p>
            {eventLink ? (
              <Link to={eventLink} onClick={onFollowLink}>
                {item.eventName}
              </Link>
            ) : (
              item.eventName
            )}
          </p>
        )}
        <p>
          by{' '}
          {item.profileName ? (
            <Link to={PAGES.creator.href({ profileName: item.profileName })} onClick={onFollowLink}>
              {item.photographer}
            </Link>
          ) : (
            item.photographer
          )}
        </p>
        {item.canAddToCart && <ItemPrice item={item} />}
        {(addToCart || download) && (
          <div className="actions">
            {addToCart && <AddToCartButton key={item.contentIdentifier} item={item} addToCart={addToCart} />}
            {download && (
              <a href={download} download={item.filename}>
                Download
              </a>
            )}
          </div>
        )}
      </div>
    </Overlay>
  );
}
