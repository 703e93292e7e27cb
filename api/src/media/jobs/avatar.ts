import { randomBytes } from 'node:crypto';
import { largestJpeg } from '../derivatives.js';
import { AVATAR_PICTURES } from '../pictureSets.js';
import type { JobRun } from './context.js';
import { makeMedia, PUBLIC_SOURCE_MAX_BYTES, removeAll } from './make.js';

/**
 * A user's profile picture (public media): a square JPEG under `media/avatar/<profile
 * name>/<random>/`, then served as the user's picture in place of the source, once.
 */
export const avatarJob: JobRun = async ({ repos, files }, profileName, timeLimit) => {
  const source = await repos.users.avatarSource(profileName);
  if (!source) return;
  const folder = `media/avatar/${profileName}/${randomBytes(9).toString('base64url')}`;
  const made = await makeMedia(
    files,
    source,
    PUBLIC_SOURCE_MAX_BYTES,
    folder,
    AVATAR_PICTURES,
    undefined,
    undefined,
    timeLimit,
  );
  if (!made.ok) return console.error(`[media] the picture of ${profileName} was refused: ${made.reason}`);
  const shown = largestJpeg(made.media);
  if (shown && (await repos.users.setAvatar(profileName, source.key, shown.key))) return;
  await removeAll(files, made.stored);
};
