import type { CSSProperties } from 'react';
import type { ResponsiveImage } from '../contract/index.js';
import { safeHref } from '../safeHref.js';

/** A srcset whose every URL is usable (safeHref), or null when one is not: a srcset is all or nothing. */
function safeSrcset(srcset: string): string | null {
  const entries = srcset.split(', ').map((entry) => {
    const [url, descriptor] = entry.split(' ');
    const safe = safeHref(url);
    return safe && descriptor ? `${safe} ${descriptor}` : null;
  });
  return entries.every((entry) => entry !== null) ? entries.join(', ') : null;
}

export interface PictureProps {
  image: ResponsiveImage;
  alt: string;
  /** How wide the picture is laid out, for the browser's choice of width (the `sizes` attribute). */
  sizes: string;
  /** The box it is drawn in; by default the picture's own size. Its aspect ratio holds the space (no layout shift). */
  width?: number;
  height?: number;
  /** The first pictures of a page: loaded at once, the very first one before other requests. */
  priority?: 'first' | 'eager' | 'lazy';
  style?: CSSProperties;
}

/**
 * A picture as the server made it (the media pipeline): AVIF, then WebP, then JPEG, each at the
 * widths made, the browser taking the width its layout needs (`sizes`); the tiny placeholder is
 * painted under it at once (scaled up, so soft), until the picture covers it.
 */
export function Picture({ image, alt, sizes, width, height, priority = 'lazy', style }: PictureProps) {
  const src = safeHref(image.src);
  const placeholder = /^data:image\/(webp|jpeg|png);base64,[A-Za-z0-9+/=]+$/.test(image.placeholder)
    ? image.placeholder
    : null;
  return (
    <picture>
      {image.sources.map((source) => {
        const srcset = safeSrcset(source.srcset);
        return srcset ? <source key={source.type} type={source.type} srcSet={srcset} sizes={sizes} /> : null;
      })}
      <img
        src={src ?? undefined}
        alt={alt}
        width={width ?? image.width}
        height={height ?? image.height}
        loading={priority === 'lazy' ? 'lazy' : 'eager'}
        fetchPriority={priority === 'first' ? 'high' : undefined}
        decoding="async"
        style={{
          objectFit: 'cover',
          ...(placeholder && { backgroundImage: `url(${placeholder})`, backgroundSize: 'cover' }),
          ...style,
        }}
      />
    </picture>
  );
}

/**
 * One URL of a picture for a place that takes a single image (a video's thumbnail): the first
 * JPEG at least `minWidth` wide (the box's width at the screen's pixel ratio), else the largest.
 */
export function pictureUrl(image: ResponsiveImage, minWidth: number): string {
  const jpeg = image.sources.find((source) => source.type === 'image/jpeg');
  const entries = (jpeg?.srcset.split(', ') ?? []).map((entry) => {
    const [url = '', descriptor = ''] = entry.split(' ');
    return { url, width: Number.parseInt(descriptor, 10) };
  });
  return entries.find((entry) => entry.width >= minWidth)?.url ?? image.src;
}
