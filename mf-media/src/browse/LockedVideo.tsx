import type { ComponentProps } from 'react';
import styled from 'styled-components';
import { type ContentItem, Picture, theme } from '@marketplace/shared';

// Spans (shown as blocks): a card's picture is inside its button, which holds phrasing content only.
const Frame = styled.span`
  position: relative;
  display: block;
  width: 100%;
  height: 100%;
  background: ${theme.colors.surface};
  picture,
  img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: contain;
  }
  .lock {
    position: absolute;
    left: 50%;
    bottom: ${theme.space.sm};
    transform: translateX(-50%);
    padding: 4px 12px;
    border-radius: 999px;
    background: rgba(0, 0, 0, 0.72);
    color: #fff;
    font-size: 0.875rem;
    white-space: nowrap;
  }
`;

/**
 * A video for sale the reader has not bought (`locked`): its poster's watermarked preview, and
 * what unlocks the video. Its ladder is the buyer's, so there is nothing to play here.
 */
export function LockedVideo({
  item,
  sizes,
  priority,
  label = 'Buy to watch',
}: {
  item: ContentItem;
  sizes: string;
  priority: ComponentProps<typeof Picture>['priority'];
  label?: string;
}) {
  return (
    <Frame>
      {item.image && <Picture image={item.image} alt={`${item.name} (preview)`} sizes={sizes} priority={priority} />}
      <span className="lock">{label}</span>
    </Frame>
  );
}
