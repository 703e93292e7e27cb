import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAYER_MAX_BUFFER_SECONDS } from '../constants.js';
import { PLAY_ICON_URL, VideoPreview } from './VideoPreview.js';

// hls.js needs Media Source Extensions, which jsdom lacks: a stand-in records what the preview asks
// of it and lets a test raise the player's errors.
const hls = vi.hoisted(() => {
  const state = {
    supported: true,
    instances: [] as {
      config: Record<string, unknown>;
      source?: string;
      media?: HTMLMediaElement;
      handlers: Map<string, (e: string, d: { type: string; fatal: boolean }) => void>;
      destroyed: boolean;
    }[],
    imported: 0,
  };
  class FakeHls {
    static Events = { ERROR: 'hlsError' };
    static ErrorTypes = { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError' };
    static isSupported = () => state.supported;
    record: (typeof state.instances)[number];
    constructor(config: Record<string, unknown>) {
      this.record = { config, handlers: new Map(), destroyed: false };
      state.instances.push(this.record);
    }
    on(event: string, handler: (e: string, d: { type: string; fatal: boolean }) => void) {
      this.record.handlers.set(event, handler);
    }
    loadSource(url: string) {
      this.record.source = url;
    }
    attachMedia(media: HTMLMediaElement) {
      this.record.media = media;
    }
    destroy() {
      this.record.destroyed = true;
    }
  }
  return { state, FakeHls };
});
vi.mock('hls.js', () => {
  hls.state.imported++;
  return { default: hls.FakeHls };
});

const PLAYLIST = 'http://files.test/media/clip/playlist.m3u8';
const THUMB = 'http://files.test/media/clip/thumb.png';

let play: ReturnType<typeof vi.spyOn>;
let pause: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  hls.state.instances.length = 0;
  hls.state.supported = true;
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets the dynamic import of hls.js and the effects after it settle. */
const settle = () => act(async () => void (await vi.advanceTimersByTimeAsync(0)));

const box = (container: HTMLElement) => container.firstElementChild as HTMLElement;
const thumbnail = (container: HTMLElement) => container.querySelector('img.thumb');
const icon = (container: HTMLElement) => container.querySelector(`img[src="${PLAY_ICON_URL}"]`);

describe('video preview', () => {
  it("says 'Video preview is processing' for an empty or missing url", () => {
    const { rerender } = render(<VideoPreview url="" thumbnailUrl={THUMB} />);
    expect(screen.getByText('Video preview is processing')).toBeInTheDocument();
    rerender(<VideoPreview url={undefined} />);
    expect(screen.getByText('Video preview is processing')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
  });

  it('shows a lazy thumbnail and the 50 px play icon from the site root, and loads nothing yet', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} />);
    expect(thumbnail(container)).toHaveAttribute('src', THUMB);
    expect(thumbnail(container)).toHaveAttribute('loading', 'lazy');
    expect(icon(container)).toHaveAttribute('width', '50');
    expect(PLAY_ICON_URL).toMatch(/^\/[^/]/);
    await settle();
    expect(container.querySelector('video')).toBeNull();
    expect(hls.state.instances).toHaveLength(0);
  });

  it('useVideoIcon=false hides the icon; useThumbnail=false shows the video at once', async () => {
    const { container, rerender } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} useVideoIcon={false} />);
    expect(thumbnail(container)).toBeInTheDocument();
    expect(icon(container)).toBeNull();
    rerender(<VideoPreview key="b" url={PLAYLIST} thumbnailUrl={THUMB} useThumbnail={false} />);
    expect(thumbnail(container)).toBeNull();
    expect(container.querySelector('video')).toBeInTheDocument();
  });

  it('after hovering 1000 ms it loads the HLS stream with a 4 s buffer, plays muted, and hides thumbnail and icon', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} />);
    fireEvent.mouseEnter(box(container));
    await act(async () => void (await vi.advanceTimersByTimeAsync(999)));
    expect(container.querySelector('video')).toBeNull();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    await settle();
    const video = container.querySelector('video')!;
    expect(video.muted).toBe(true);
    expect(hls.state.instances).toHaveLength(1);
    const player = hls.state.instances[0]!;
    expect(player.config).toMatchObject({ maxBufferLength: PLAYER_MAX_BUFFER_SECONDS, maxMaxBufferLength: 4 });
    expect(player.source).toBe(PLAYLIST);
    expect(player.media).toBe(video);
    expect(play).toHaveBeenCalled();
    expect(thumbnail(container)).toBeNull();
    expect(icon(container)).toBeNull();
  });

  it('leaving before the delay loads nothing', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} />);
    fireEvent.mouseEnter(box(container));
    await act(async () => void (await vi.advanceTimersByTimeAsync(500)));
    fireEvent.mouseLeave(box(container));
    await act(async () => void (await vi.advanceTimersByTimeAsync(2000)));
    expect(container.querySelector('video')).toBeNull();
    expect(play).not.toHaveBeenCalled();
  });

  it('leaving pauses, rewinds to the start and shows the thumbnail again', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} hoverDelay={300} />);
    fireEvent.mouseEnter(box(container));
    await act(async () => void (await vi.advanceTimersByTimeAsync(300)));
    await settle();
    const video = container.querySelector('video')!;
    video.currentTime = 2.5;
    fireEvent.mouseLeave(box(container));
    expect(pause).toHaveBeenCalled();
    expect(video.currentTime).toBe(0);
    expect(thumbnail(container)).toBeInTheDocument();
    expect(icon(container)).toBeInTheDocument();
  });

  it('without a thumbnail, hovering plays the video and leaving pauses and rewinds it', async () => {
    for (const props of [{}, { thumbnailUrl: THUMB, useThumbnail: false }]) {
      const { container, unmount } = render(<VideoPreview url={PLAYLIST} hoverDelay={300} {...props} />);
      await settle();
      const video = container.querySelector('video')!;
      expect(play).not.toHaveBeenCalled();
      fireEvent.mouseEnter(box(container));
      await act(async () => void (await vi.advanceTimersByTimeAsync(300)));
      await settle();
      expect(play).toHaveBeenCalledTimes(1);
      video.currentTime = 1.5;
      fireEvent.mouseLeave(box(container));
      expect(pause).toHaveBeenCalledTimes(1);
      expect(video.currentTime).toBe(0);
      expect(thumbnail(container)).toBeNull();
      unmount();
      play.mockClear();
      pause.mockClear();
    }
  });

  it('playWhileHovering=false ignores hovering', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} playWhileHovering={false} />);
    fireEvent.mouseEnter(box(container));
    await act(async () => void (await vi.advanceTimersByTimeAsync(5000)));
    expect(container.querySelector('video')).toBeNull();
  });

  it('without a thumbnail the video loads on mount, without playing unless autoplay', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} />);
    await settle();
    expect(container.querySelector('video')).toBeInTheDocument();
    expect(hls.state.instances[0]?.source).toBe(PLAYLIST);
    expect(play).not.toHaveBeenCalled();
  });

  it('autoplay loads and plays at once', async () => {
    render(<VideoPreview url={PLAYLIST} thumbnailUrl={THUMB} autoplay />);
    await settle();
    expect(play).toHaveBeenCalled();
  });

  it('uses the plain url as a direct source when HLS is unsupported, and for a plain file', async () => {
    hls.state.supported = false;
    const { container, rerender } = render(<VideoPreview url={PLAYLIST} />);
    await settle();
    expect(container.querySelector('video')).toHaveAttribute('src', PLAYLIST);
    expect(hls.state.instances).toHaveLength(0);
    rerender(<VideoPreview key="mp4" url="http://files.test/media/clip.mp4" />);
    await settle();
    expect(container.querySelector('video')).toHaveAttribute('src', 'http://files.test/media/clip.mp4');
  });

  it("switches to 'Video failed to load' on a network-type player error, not on others", async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} />);
    await settle();
    const onError = hls.state.instances[0]!.handlers.get('hlsError')!;
    act(() => onError('hlsError', { type: 'mediaError', fatal: false }));
    expect(screen.queryByText('Video failed to load')).toBeNull();
    act(() => onError('hlsError', { type: 'networkError', fatal: true }));
    expect(screen.getByText('Video failed to load')).toBeInTheDocument();
    expect(container.querySelector('video')).toBeNull();
    expect(hls.state.instances[0]!.destroyed).toBe(true);
  });

  it("a plain source's network error shows the failure too", async () => {
    const { container } = render(<VideoPreview url="http://files.test/media/clip.mp4" />);
    await settle();
    const video = container.querySelector('video')!;
    Object.defineProperty(video, 'error', { value: { code: 2 } });
    fireEvent.error(video);
    expect(screen.getByText('Video failed to load')).toBeInTheDocument();
  });

  it("carries the browser fallback text and the caller's size, style, class and controls", async () => {
    const { container } = render(
      <VideoPreview url={PLAYLIST} width={320} height={180} controls className="teaser" style={{ marginTop: 4 }} />,
    );
    await settle();
    expect(box(container)).toHaveClass('teaser');
    expect(box(container)).toHaveStyle({ width: '320px', height: '180px', marginTop: '4px' });
    const video = container.querySelector('video')!;
    expect(video).toHaveAttribute('controls');
    expect(video).toHaveTextContent('Your browser does not support the video tag.');
  });

  it('muted=false keeps the sound on', async () => {
    const { container } = render(<VideoPreview url={PLAYLIST} muted={false} />);
    await settle();
    expect(container.querySelector('video')!.muted).toBe(false);
  });

  it('never uses a url that is not http(s) or site-relative', () => {
    render(<VideoPreview url="javascript:alert(1)" thumbnailUrl="javascript:alert(2)" />);
    expect(screen.getByText('Video preview is processing')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });
});
