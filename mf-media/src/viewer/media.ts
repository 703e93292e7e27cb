import type { ContentItem } from '@marketplace/shared';

/** Images and videos are told apart by contentType, or by metadata['Content-Type'] when that is missing. */
export function isVideo(item: Pick<ContentItem, 'contentType' | 'metadata'>): boolean {
  const type = item.contentType || item.metadata?.['Content-Type'] || '';
  return type.toLowerCase().startsWith('video/');
}

/** Wrap-around index (SPEC.md section 2: previous from the first is the last). */
export const wrap = (index: number, total: number) => ((index % total) + total) % total;
