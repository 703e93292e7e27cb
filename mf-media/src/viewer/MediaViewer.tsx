import { useId, useRef } from 'react';
import { type ContentItem, IconButton, useDialogFocus, usePreparedStyles, useScrollLock } from '@marketplace/shared';
import type { AddToCart } from '../cart/AddToCart.js';
import { isVideo } from './media.js';
import { useViewerKeys } from './useViewerKeys.js';
import { useViewerNavigation } from './useViewerNavigation.js';
import { ViewerInfo } from './ViewerInfo.js';
import { ViewerMedia } from './ViewerMedia.js';
import { Overlay } from './ViewerOverlay.js';

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
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useScrollLock();
  const trapTab = useDialogFocus(panel, 'button[aria-label="Close"]');
  const total = items.length;
  const { shown, step, swipeHandlers } = useViewerNavigation(startIndex, total, onIndexChange);
  const item = items[shown];
  const video = item ? isVideo(item) : false;
  useViewerKeys({ panel, video, step, onClose });

  if (!item) return null;

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
          {shown + 1} of {total}
        </span>
        <IconButton label="Close" tone="inverse" size={44} onClick={onClose}>
          ×
        </IconButton>
      </div>
      <div className="stage" data-backdrop="">
        <IconButton className="nav previous" label="Previous" tone="inverse" size={44} onClick={() => step(-1)}>
          ‹
        </IconButton>
        <div className="media" data-backdrop="" data-testid="viewer-media" {...swipeHandlers}>
          <ViewerMedia item={item} />
        </div>
        <IconButton className="nav next" label="Next" tone="inverse" size={44} onClick={() => step(1)}>
          ›
        </IconButton>
      </div>
      <ViewerInfo
        item={item}
        titleId={titleId}
        addToCart={addToCart}
        downloadUrl={downloadUrl}
        onFollowLink={onFollowLink}
      />
    </Overlay>
  );
}
