import styled from 'styled-components';
import { Card, formatMoney, Skeleton, theme, type ContentItem } from '@marketplace/shared';

/**
 * How many cards' pictures load at once rather than when scrolled near: a wide screen's first
 * row. The largest of them is what the page is judged by (LCP), and a lazy image waits for
 * layout before it is even asked for, which a page rendered on the server would otherwise pay.
 */
export const EAGER_PICTURES = 4;

/** How a card's picture loads (the first ones at once, the first of all first). */
export const pictureLoading = (index: number) =>
  index < EAGER_PICTURES
    ? ({ loading: 'eager', fetchPriority: index === 0 ? 'high' : 'auto' } as const)
    : ({ loading: 'lazy' } as const);

/** The same for a processed picture (shared Picture): the first ones at once, the first of all first. */
export const picturePriority = (index: number) =>
  index < EAGER_PICTURES ? (index === 0 ? 'first' : 'eager') : ('lazy' as const);

/**
 * How wide a card's picture is laid out, for the browser's choice among the widths made: the
 * grid's columns are at least 220 px, so one or two across a phone, about 300 px on a wide screen.
 */
export const CARD_SIZES = '(max-width: 480px) 100vw, (max-width: 960px) 50vw, 320px';

/** The grid of cards every gallery and the events list use. */
export const Grid = styled.ul`
  list-style: none;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 16px;
  /* Cards (the shared Card as li): the picture runs to the card's edges. */
  > li {
    padding: 0 0 ${theme.space.sm};
    overflow: hidden;
  }
  /* An event's cover, as seeded or as the media pipeline made it. */
  > li > a > img,
  > li > a > picture > img {
    width: 100%;
    /* width/height attributes reserve the space; the card crops to 3:2. */
    height: auto;
    aspect-ratio: 3 / 2;
    object-fit: cover;
    display: block;
    background: ${theme.colors.surface};
  }
  /* A card's name is the heading under the page's h1, sized as a card's title (1.17em: the size it had as an h3). */
  h2 {
    font-size: 1.17em;
  }
  h2,
  p {
    margin: 8px 12px 0;
  }
`;

/**
 * A grid of grey cards while a gallery or the events load: a 3:2 picture and `lines` lines of
 * text each, in the same grid as the real cards, so the page does not move when they arrive.
 */
export function CardsSkeleton({ count = 8, lines = 2 }: { count?: number; lines?: number }) {
  return (
    <Grid aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <Card as="li" key={i}>
          <Skeleton shape="block" height="auto" style={{ aspectRatio: '3 / 2', borderRadius: 0 }} />
          <Skeleton height={20} style={{ margin: '10px 12px 0', width: 'auto', maxWidth: '60%' }} />
          {Array.from({ length: lines - 1 }, (_, j) => (
            <Skeleton key={j} height={14} style={{ margin: '10px 12px 0', width: 'auto', maxWidth: '70%' }} />
          ))}
        </Card>
      ))}
    </Grid>
  );
}

/**
 * "Processing…" in place of a photo the media pipeline is still making (issue 37; the spec has
 * this state for videos only, which VideoPreview shows as "Video preview is processing").
 */
export const Processing = styled.div.attrs({ role: 'status' })`
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 120px;
  padding: ${theme.space.sm};
  text-align: center;
  color: ${theme.colors.muted};
  background: ${theme.colors.surface};
`;

/** What an item for sale costs, as the server priced it (minor units of its currency). */
export function ItemPrice({ item }: { item: ContentItem }) {
  return (
    <p className="price" style={{ fontWeight: 600 }}>
      {formatMoney(item.priceCents, item.currency)}
    </p>
  );
}
