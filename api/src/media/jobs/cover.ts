import { randomBytes } from 'node:crypto';
import { contentTypeOf } from '../../files/paths.js';
import { PAGE_PICTURES } from '../pictureSets.js';
import type { JobRun } from './context.js';
import { madeFiles, makeMedia, PUBLIC_SOURCE_MAX_BYTES, removeAll } from './make.js';
import { publicJob } from './public.js';

/**
 * An event's cover: one its organizer uploaded (routes/events.ts), made into pictures under
 * `media/cover/<identifier>/<random>/` and shown in place of the one before, whose files go, as
 * does the upload; a file that does not decode as its type is forgotten (the cover stays as it
 * was). Without an upload, the seed's cover (publicJob).
 */
export const coverJob: JobRun = async (services, identifier, timeLimit) => {
  const { repos, files } = services;
  const key = await repos.content.uploadedCover(identifier);
  if (!key) return publicJob(services, 'cover', identifier, timeLimit);
  const folder = `media/cover/${identifier}/${randomBytes(9).toString('base64url')}`;
  const made = await makeMedia(
    files,
    { key, contentType: contentTypeOf(key) },
    PUBLIC_SOURCE_MAX_BYTES,
    folder,
    PAGE_PICTURES,
    undefined,
    undefined,
    timeLimit,
  );
  if (!made.ok) {
    console.error(`[media] the uploaded cover of ${identifier} was refused: ${made.reason}`);
    if (await repos.content.dropCoverSource(identifier, key)) await files.remove(key);
    return;
  }
  const recorded = await repos.content.setUploadedCover(identifier, key, made.media);
  // Another worker recorded it first, or a newer upload replaced it meanwhile.
  if (!recorded) return void (await removeAll(files, made.stored));
  if (recorded.replaced) await removeAll(files, madeFiles(recorded.replaced));
  await files.remove(key);
};
