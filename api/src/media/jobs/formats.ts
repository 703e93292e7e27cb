import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { uploadLimit } from '../../config.js';
import type { TargetMedia } from '../derivatives.js';
import { FORMAT_TYPES, type ImageFormat, ORDER_PICTURES, PAGE_PICTURES } from '../pictureSets.js';
import type { JobRun } from './context.js';
import { makeMedia, removeAll } from './make.js';

/**
 * The formats of a ready target's picture that are in none of its derivatives (those its first
 * run deferred); none for a video, or a target uploaded before the pipeline.
 */
export const formatsMissing = (media: TargetMedia | null): ImageFormat[] =>
  !media || media.video || media.derivatives.length === 0
    ? []
    : ORDER_PICTURES.formats.filter((f) => !media.derivatives.some((d) => d.contentType === FORMAT_TYPES[f]));

/**
 * An order picture's formats its first run left out (its AVIF, media/pictureSets.ts ORDER_PICTURES),
 * made from the source in a folder of this run's own beside the first run's, and added to the
 * target's media once stored, so its `<picture>` never names a file not written. Of two runs, or
 * a run and the target's removal, one adds them; the other run removes what it made.
 */
export const formatsJob: JobRun = async ({ repos, files, config }, targetIdentifier, timeLimit) => {
  const ready = await repos.orders.filesOf(targetIdentifier);
  const missing = formatsMissing(ready?.media ?? null);
  const shown = ready?.media;
  const first = shown?.derivatives[0];
  if (!ready || !shown || !first || missing.length === 0) return;
  const folder = `${posix.dirname(posix.dirname(first.key))}/${randomBytes(9).toString('base64url')}`;
  const made = await makeMedia(
    files,
    { key: ready.key, contentType: ready.contentType },
    uploadLimit(config, ready.contentType),
    folder,
    { ...PAGE_PICTURES, formats: missing },
    undefined,
    // One encode at a time: an upload's first pictures, made meanwhile, get the other core.
    1,
    timeLimit,
  );
  // It was made once from this source: shown as it is.
  if (!made.ok) return console.error(`[media] the later formats of ${targetIdentifier} were refused: ${made.reason}`);
  try {
    if (await repos.orders.addDerivatives(targetIdentifier, shown, made.media.derivatives)) return;
  } catch (error) {
    await removeAll(files, made.stored);
    throw error;
  }
  await removeAll(files, made.stored);
};
