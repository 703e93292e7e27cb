import { randomBytes } from 'node:crypto';
import { unmarkedFolder } from '../../files/paths.js';
import { PAGE_PICTURES, SALE_PICTURES } from '../pictureSets.js';
import type { JobTimeLimit } from '../queueOptions.js';
import type { WorkerServices } from './context.js';
import { madeFiles, makeMedia, PUBLIC_SOURCE_MAX_BYTES, removeAll } from './make.js';

/**
 * An event's photo, video or cover (public media), stored under
 * `media/<kind>/<identifier>/<random>/` (a new folder each run: immutable URLs). A photo or video
 * for sale is stored there as its watermarked preview, and unmarked (with a video's ladder) under
 * `unmarked/` (files/paths.ts); one made before previews were is made again, and its public
 * files go once the new ones are recorded. A source that does not decode is the seed's or an
 * operator's mistake: logged, and the item stays processing (or as it was).
 */
export async function publicJob(
  { repos, files, config }: WorkerServices,
  kind: 'content' | 'cover',
  identifier: string,
  timeLimit: JobTimeLimit,
): Promise<void> {
  // A cover is nothing anyone buys, and is made once.
  const source =
    kind === 'content'
      ? await repos.content.contentSource(identifier)
      : await repos.content
          .coverSource(identifier)
          .then((cover) => cover && { ...cover, forSale: false, replaces: null });
  if (!source) return;
  const limit = source.contentType.startsWith('video/') ? config.videoUploadMaxBytes : PUBLIC_SOURCE_MAX_BYTES;
  const run = randomBytes(9).toString('base64url');
  const folder = `media/${kind}/${identifier}/${run}`;
  const made = source.forSale
    ? await makeMedia(
        files,
        source,
        limit,
        folder,
        SALE_PICTURES,
        unmarkedFolder(identifier, run),
        undefined,
        timeLimit,
      )
    : await makeMedia(files, source, limit, folder, PAGE_PICTURES, undefined, undefined, timeLimit);
  if (!made.ok) return console.error(`[media] the ${kind} source of ${identifier} was refused: ${made.reason}`);
  if (await repos.content.setPublicMedia(kind, identifier, made.media)) {
    if (source.replaces) await removeAll(files, madeFiles(source.replaces));
    return;
  }
  // Another worker recorded its own first.
  await removeAll(files, made.stored);
}

/** An event's photo or video. */
export const contentJob = (services: WorkerServices, identifier: string, timeLimit: JobTimeLimit) =>
  publicJob(services, 'content', identifier, timeLimit);
