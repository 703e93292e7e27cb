import { memo, useCallback, useRef } from 'react';
import styled from 'styled-components';
import {
  Card,
  type ContentItem,
  Link,
  PAGES,
  Picture,
  PlainButton,
  safeHref,
  sessionStore,
  theme,
} from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { VideoPreview } from '@marketplace/shared/video';
import { AddToCartButton, type AddToCart } from '../cart/AddToCart.js';
import { MediaViewer, usePreparedViewer, type MediaViewerProps } from '../viewer/MediaViewer.js';
import { isVideo } from '../viewer/media.js';
import { usePhotoAddress } from '../viewer/usePhotoAddress.js';
import { LockedVideo } from './LockedVideo.js';
import { CARD_SIZES, Grid, ItemPrice, pictureLoading, picturePriority, Processing } from './ui.js';

/** The card grid, whose cards open the viewer from their picture. */
const Cards = styled(Grid)`
  .open {
    display: block;
    width: 100%;
    background: ${theme.colors.surface};
    cursor: zoom-in;
    aspect-ratio: 3 / 2;
  }
  /* The focus ring inside the picture: the card clips what sticks out. */
  .open:focus-visible {
    outline-offset: -2px;
  }
  .open > picture {
    display: contents;
  }
  .open > img,
  .open > picture > img,
  .open > div {
    width: 100%;
    height: 100%;
    object-fit: cover;
    display: block;
  }
`;

/** Everything the viewer may offer here: the shared cart, and downloads where the page allows them. */
export const addToSharedCart: AddToCart = (item) => sessionStore.getState().addToCart(item.contentIdentifier);

export interface ContentGridProps {
  items: ContentItem[];
  /** Supplying it lets the viewer offer Download (a creator's own page). */
  downloadUrl?: MediaViewerProps['downloadUrl'];
}

/**
 * A gallery of photos and video previews: each card opens the media viewer at that item;
 * cards are buttons, so the gallery is reachable with Tab and opens with Enter or Space. The viewer
 * is open while the address names one of the items (`?photo=`): Back closes it, and a
 * shared link opens it once the page is hydrated.
 */
export function ContentGrid({ items, downloadUrl }: ContentGridProps) {
  const photo = usePhotoAddress(items);
  usePreparedViewer();
  // The same function in every render, so the cards are not rendered again when the viewer opens
  // or moves on (or the address follows it): only the viewer is.
  const latestOpen = useRef(photo.open);
  latestOpen.current = photo.open;
  const open = useCallback((index: number) => latestOpen.current(index), []);
  return (
    <>
      <Cards aria-label="Gallery">
        {items.map((item, i) => (
          <GalleryCard key={item.contentIdentifier} item={item} index={i} onOpen={open} />
        ))}
      </Cards>
      {photo.index !== null && (
        <MediaViewer
          items={items}
          startIndex={photo.index}
          onClose={photo.close}
          onIndexChange={photo.show}
          onFollowLink={() => undefined}
          addToCart={addToSharedCart}
          downloadUrl={downloadUrl}
        />
      )}
    </>
  );
}

/** One card of the gallery: rendered again only when its item (or place) changes. */
const GalleryCard = memo(function GalleryCard({
  item,
  index,
  onOpen,
}: {
  item: ContentItem;
  index: number;
  onOpen: (index: number) => void;
}) {
  return (
    <Card as="li">
      <PlainButton
        className="open"
        // Its name holds what it shows in words (a locked video's "Buy to watch"), for speech input.
        aria-label={isVideo(item) && item.locked ? `Open ${item.name}, buy to watch` : `Open ${item.name}`}
        onClick={() => onOpen(index)}
      >
        <Preview item={item} index={index} />
      </PlainButton>
      <h2>{item.name}</h2>
      <p>
        by{' '}
        {item.profileName ? (
          <Link to={PAGES.creator.href({ profileName: item.profileName })}>{item.photographer}</Link>
        ) : (
          item.photographer
        )}
      </p>
      {item.canAddToCart && <ItemPrice item={item} />}
      <p>
        <AddToCartButton item={item} addToCart={addToSharedCart} />
      </p>
    </Card>
  );
});

/** A card's picture: the thumbnail of a photo, or a video preview that plays on hover (a poster until bought, for one for sale). */
export function Preview({ item, index }: { item: ContentItem; index: number }) {
  if (isVideo(item) && item.locked)
    return <LockedVideo item={item} sizes={CARD_SIZES} priority={picturePriority(index)} />;
  if (isVideo(item)) return <VideoPreview url={item.contentUrl} thumbnailUrl={item.thumbnailUrl} />;
  if (item.processing) return <Processing>Processing…</Processing>;
  if (item.image) return <Picture image={item.image} alt="" sizes={CARD_SIZES} priority={picturePriority(index)} />;
  const src = safeHref(item.thumbnailUrl ?? item.contentUrl);
  return src ? <img src={src} alt="" width={item.width} height={item.height} {...pictureLoading(index)} /> : null;
}
