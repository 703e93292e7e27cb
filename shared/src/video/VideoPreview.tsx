import { useEffect, useRef, useState, type CSSProperties } from 'react';
import styled from 'styled-components';
import { PLAY_ICON_WIDTH_PX, PLAYER_MAX_BUFFER_SECONDS, VIDEO_HOVER_DELAY_MS } from '../constants.js';
import { safeHref } from '../safeHref.js';
import { theme } from '../ui/theme.js';
import { isHlsUrl, loadHls } from './loadHls.js';

/** MediaError.MEDIA_ERR_NETWORK: the plain-source counterpart of hls.js's network errors. */
const MEDIA_ERR_NETWORK = 2;

/** The play icon: a static image every app serves from its site root (build-preset/site). */
export const PLAY_ICON_URL = '/play-icon.svg';

export interface VideoPreviewProps {
  /** HLS playlist or plain video file; empty while the server is still processing the video. */
  url: string | null | undefined;
  width?: number | string;
  height?: number | string;
  controls?: boolean;
  style?: CSSProperties;
  className?: string;
  /** Default true: a preview that starts on hover must not make noise. */
  muted?: boolean;
  thumbnailUrl?: string | null;
  /** Show the play icon over the thumbnail (default true). */
  useVideoIcon?: boolean;
  /** Show the thumbnail until the video plays (default true). */
  useThumbnail?: boolean;
  /** Milliseconds of hovering before the video loads and plays (default 1000). */
  hoverDelay?: number;
  /** Play while the pointer rests on the preview (default true). */
  playWhileHovering?: boolean;
  /** Load and play at once, without waiting for a hover. */
  autoplay?: boolean;
}

const Box = styled.div`
  position: relative;
  overflow: hidden;
  background: #000;
  video,
  .thumb {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  /* Over the video once it is loaded, so leaving shows the thumbnail again without a reload. */
  .thumb.over {
    position: absolute;
    inset: 0;
  }
  .icon {
    width: ${PLAY_ICON_WIDTH_PX}px;
    height: auto;
    position: absolute;
    left: 50%;
    top: 50%;
    transform: translate(-50%, -50%);
    pointer-events: none;
  }
  .message {
    display: flex;
    align-items: center;
    justify-content: center;
    height: 100%;
    min-height: 80px;
    margin: 0;
    padding: 8px;
    color: #fff;
    background: ${theme.colors.text};
    text-align: center;
  }
`;

/**
 * SPEC.md section 2 "Video preview component" and section 4 "Video preview": a thumbnail that
 * turns into a muted playing video after hovering for the delay, and back when the pointer leaves.
 */
export function VideoPreview({
  url,
  width,
  height,
  controls = false,
  style,
  className,
  muted = true,
  thumbnailUrl,
  useVideoIcon = true,
  useThumbnail = true,
  hoverDelay = VIDEO_HOVER_DELAY_MS,
  playWhileHovering = true,
  autoplay = false,
}: VideoPreviewProps) {
  const src = safeHref(url);
  const thumb = useThumbnail ? safeHref(thumbnailUrl) : null;
  // Without a thumbnail there is nothing to show instead: the video loads on mount.
  const [loaded, setLoaded] = useState(!thumb || autoplay);
  const [showThumb, setShowThumb] = useState(Boolean(thumb) && !autoplay);
  const [wantPlay, setWantPlay] = useState(autoplay);
  const [attached, setAttached] = useState(false);
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Attach the source once the video is needed: hls.js where the browser has Media Source
  // Extensions, the plain url where HLS through hls.js is unsupported.
  useEffect(() => {
    const el = video.current;
    // A failed player is let go, so it stops retrying behind the failure display.
    if (!loaded || !src || !el || failed) return;
    let cancelled = false;
    let destroy = () => {};
    if (!isHlsUrl(src)) {
      el.src = src;
      setAttached(true);
    } else {
      void loadHls().then(
        (Hls) => {
          if (cancelled) return;
          if (Hls.isSupported()) {
            // SPEC.md section 7: the player caps its buffer at 4 seconds.
            const hls = new Hls({
              maxBufferLength: PLAYER_MAX_BUFFER_SECONDS,
              maxMaxBufferLength: PLAYER_MAX_BUFFER_SECONDS,
            });
            hls.on(Hls.Events.ERROR, (_event, data) => {
              // SPEC.md section 4: a network-type player error switches to the failure display.
              if (data.type === Hls.ErrorTypes.NETWORK_ERROR) setFailed(true);
            });
            hls.loadSource(src);
            hls.attachMedia(el);
            destroy = () => hls.destroy();
          } else {
            el.src = src;
          }
          setAttached(true);
        },
        () => setFailed(true),
      );
    }
    return () => {
      cancelled = true;
      destroy();
    };
  }, [loaded, src, failed]);

  useEffect(() => {
    const el = video.current;
    if (!attached || !el) return;
    // Browsers refuse to play without a gesture unless muted; a refused play just stays paused.
    if (wantPlay) void el.play()?.catch(() => undefined);
  }, [attached, wantPlay]);

  useEffect(() => () => clearTimeout(hoverTimer.current), []);

  if (!src)
    return (
      <Message text="Video preview is processing" width={width} height={height} style={style} className={className} />
    );
  if (failed)
    return <Message text="Video failed to load" width={width} height={height} style={style} className={className} />;

  const onEnter = () => {
    if (!playWhileHovering) return;
    clearTimeout(hoverTimer.current);
    hoverTimer.current = setTimeout(() => {
      setLoaded(true);
      setShowThumb(false);
      setWantPlay(true);
    }, hoverDelay);
  };
  // SPEC.md section 4: leaving pauses and rewinds, with or without a thumbnail to show again.
  const onLeave = () => {
    clearTimeout(hoverTimer.current);
    if (!playWhileHovering) return;
    const el = video.current;
    if (el) {
      el.pause();
      el.currentTime = 0;
    }
    setWantPlay(false);
    if (thumb) setShowThumb(true);
  };

  return (
    <Box
      className={className}
      style={{ width, height, ...style }}
      onMouseEnter={onEnter}
      onMouseLeave={onLeave}
      data-state={showThumb ? 'thumbnail' : 'video'}
    >
      {loaded && (
        <video
          ref={video}
          muted={muted}
          controls={controls}
          playsInline
          loop={playWhileHovering && Boolean(thumb)}
          preload="auto"
          width={typeof width === 'number' ? width : undefined}
          height={typeof height === 'number' ? height : undefined}
          onError={(e) => {
            if (e.currentTarget.error?.code === MEDIA_ERR_NETWORK) setFailed(true);
          }}
        >
          Your browser does not support the video tag.
        </video>
      )}
      {showThumb && thumb && <img className={loaded ? 'thumb over' : 'thumb'} src={thumb} alt="" loading="lazy" />}
      {showThumb && thumb && useVideoIcon && (
        <img className="icon" src={PLAY_ICON_URL} alt="" width={PLAY_ICON_WIDTH_PX} />
      )}
    </Box>
  );
}

function Message({
  text,
  width,
  height,
  style,
  className,
}: {
  text: string;
  width?: number | string;
  height?: number | string;
  style?: CSSProperties;
  className?: string;
}) {
  return (
    <Box className={className} style={{ width, height, ...style }}>
      <p className="message" role="status">
        {text}
      </p>
    </Box>
  );
}
