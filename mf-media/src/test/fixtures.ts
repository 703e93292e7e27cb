import type { CartItem, ContentItem } from '@marketplace/shared';

let next = 1;

/** A content item as the API sends it; a photo unless told otherwise. */
export function contentItem(over: Partial<ContentItem> = {}): ContentItem {
  const n = next++;
  return {
    name: `Photo ${n}`,
    contentIdentifier: `ci-${n}`,
    contentUrl: `http://files.test/media/${n}.png`,
    contentType: 'image/png',
    metadata: { 'Content-Type': 'image/png' },
    width: 1200,
    height: 800,
    thumbnailUrl: `http://files.test/media/${n}-thumb.png`,
    filePath: `events/jazz/${n}.png`,
    filename: `${n}.png`,
    eventName: 'Summer Jazz Night',
    eventIdentifier: 'summer-jazz-night-2026',
    photographer: 'Mia Lens',
    profileName: 'mia',
    iconUrl: null,
    canAddToCart: true,
    priceCents: 1500,
    ...over,
  };
}

export const videoItem = (over: Partial<ContentItem> = {}) =>
  contentItem({ name: 'Clip', contentType: 'video/mp4', metadata: { 'Content-Type': 'video/mp4' }, contentUrl: 'http://files.test/media/clip/playlist.m3u8', ...over });

export const cartItem = (identifier: string): CartItem => ({ identifier, itemType: 'CONTENT', name: identifier, thumbnailUrl: null, eventName: null, priceCents: 100 });
