import { type ContentItem, Picture, safeHref } from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { VideoPreview } from '@marketplace/shared/video';
import { isVideo } from './media.js';
import { LockedVideo } from '../browse/LockedVideo.js';
import { Processing } from '../browse/ui.js';

/**
 * The item itself, made anew for each item: a locked video's preview, a player, a picture at the
 * width the screen needs, or its processing note.
 */
export function ViewerMedia({ item }: { item: ContentItem }) {
  const src = safeHref(item.contentUrl);
  const video = isVideo(item);
  return video && item.locked ? (
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
  );
}
