/** The renditions made of a video (media/videoLadder.ts), smallest first (it is ready first); none taller than the source. */
export const RENDITIONS = [
  { name: '360p', height: 360, videoKbps: 800 },
  { name: '720p', height: 720, videoKbps: 2800 },
] as const;

/** The longest video accepted (a preview of an event's work, not the whole film). */
export const MAX_VIDEO_SECONDS = 15 * 60;

/** The largest side of a video's picture: 4096 takes 4K (DCI 4096 x 2160, and UHD upright) and nothing an event is filmed in beyond it. */
export const MAX_VIDEO_SIDE = 4096;

/**
 * What a video may cost, measured while it is decoded rather than read from its header (which a
 * file can make say anything): its length, the size of its frames, the bytes its ladder takes,
 * and the moment by which every ffmpeg run over it has ended.
 */
export interface VideoLimits {
  maxSeconds: number;
  maxSide: number;
  maxOutputBytes: number;
  /** Epoch ms: every run is killed by then (the caller's job must end before its queue's expiry). */
  deadline: number;
}

/**
 * The ladder's bytes for the longest video at every rendition's peak rate (plus audio), with room
 * for containers and rate-control overshoot: more than this is no honest video's output.
 */
const maxLadderBytes = (seconds: number) =>
  Math.ceil(((RENDITIONS.reduce((sum, r) => sum + r.videoKbps * 1.2 + 128, 0) * 1000) / 8) * seconds * 1.5);

export const defaultVideoLimits = (deadline: number): VideoLimits => ({
  maxSeconds: MAX_VIDEO_SECONDS,
  maxSide: MAX_VIDEO_SIDE,
  maxOutputBytes: maxLadderBytes(MAX_VIDEO_SECONDS),
  deadline,
});
