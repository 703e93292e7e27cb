import { RunFailed, RunStopped } from './videoRun.js';

/**
 * What the uploader reads when a video is refused: the product's own words, never ffmpeg's
 * (whose messages name temporary paths); the raw error is logged on the server.
 */
export const VIDEO_REFUSALS = {
  unreadable: 'This file is not a readable video.',
  tooLong: (seconds: number) =>
    `This video is longer than ${seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`}.`,
  tooLarge: (side: number) => `This video's picture is too large (at most ${side} x ${side} pixels).`,
  tooMuch: 'This video makes more data than we accept.',
  tooSlow: 'This video took too long to process.',
} as const;

/** A video refused while it was made: `reason` is the uploader's, `detail` (when any) goes to the log. */
export class VideoRefused extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: unknown,
  ) {
    super(reason);
  }
}

/**
 * A run that ended in error, as a refusal in the uploader's words (thrown); a missing program is
 * ours to fix, so it is thrown as it is (the job is retried).
 */
export function refusedRun(error: unknown, maxSide: number): never {
  if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw error;
  const reason =
    error instanceof RunStopped
      ? error.why === 'time'
        ? VIDEO_REFUSALS.tooSlow
        : VIDEO_REFUSALS.tooMuch
      : error instanceof RunFailed && error.pictureTooLarge
        ? VIDEO_REFUSALS.tooLarge(maxSide)
        : VIDEO_REFUSALS.unreadable;
  throw new VideoRefused(reason, error);
}
