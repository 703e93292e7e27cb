import { timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { FILES_PATHS } from '@marketplace/shared/contract';
import { uploadLimit } from '../config.js';
import type { AppEnv } from '../http/env.js';
import { limitBody } from '../http/limits.js';
import { HttpError, notFound, orderClosed } from '../http/errors.js';
import type { Services } from '../services.js';
import { CONTENT_FILE_PATH, ORIGINAL_FILE } from './contentFileLinks.js';
import { fileLinks } from './fileLinks.js';
import { contentTypeOf, isPrivateKey, orderFileKey } from './paths.js';
import type { FileStore } from './fileStore.js';
import { completeUpload, receiveUpload, uploadProblem } from './uploads.js';
import { stripsLocation, withoutLocation } from './stripLocation.js';
import { UPLOADED_ORIGINAL } from './orderFileLinks.js';
import { servedPlaylist } from '../media/derivatives.js';
import { isClosed } from '../domain/orders.js';

/**
 * Every file answer: the browser takes the type as given (nosniff) and runs nothing in it, even
 * opened on its own (a sandbox without scripts, no other resource), whatever the file holds.
 */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
};

/**
 * Streams a stored file with the type given, or answers 404. An original served to anyone but
 * its uploader (`withoutLocation`) goes without where it was taken (files/stripLocation.ts):
 * shorter than stored, so without a length.
 */
async function fileResponse(
  files: FileStore,
  key: string,
  contentType: string,
  headers: Record<string, string>,
  { withoutLocation: strip = false } = {},
): Promise<Response> {
  const file = await files.open(key);
  if (!file) throw notFound('File');
  const stripped = strip && stripsLocation(contentType);
  return new Response(stripped ? withoutLocation(file.body, contentType) : file.body, {
    headers: {
      ...FILE_HEADERS,
      'Content-Type': contentType,
      ...(stripped ? {} : { 'Content-Length': String(file.size) }),
      ...headers,
    },
  });
}

/** A file name safe inside a quoted Content-Disposition, with the full name in filename*. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\w.\- ]/g, '_') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The files host: downloads, media (images, HLS playlists and segments), and upload targets, from
 * the file store. With an object store, downloads redirect to a short-lived presigned URL (the
 * bytes do not pass through the API) and uploads go straight to the store (files/uploads.ts);
 * media are streamed, since an HLS playlist names its segments relative to its own URL.
 */
export function registerFileRoutes(app: Hono<AppEnv>, services: Services): void {
  const { repos, config, files } = services;
  /** A key from the client: well formed, and of a public file (an order's files are reached by signed link only). */
  const checked = (key: string, field?: string): string => {
    const problem = files.check(key);
    if (problem) throw new HttpError(400, problem, field);
    if (isPrivateKey(key)) throw notFound('File');
    return key;
  };
  const links = fileLinks(config.fileLinkKey);

  app.get(FILES_PATHS.download, async (c) => {
    const key = checked(c.req.query('filePath') ?? '', 'filePath');
    const fileName = c.req.query('fileName') || key.split('/').pop() || 'download';
    const disposition = contentDisposition(fileName);
    if (files.kind === 's3') {
      if ((await files.size(key)) === undefined) throw notFound('File');
      const url = await files.presignDownload(key, contentTypeOf(key), disposition);
      if (url) return c.redirect(url, 302);
    }
    return fileResponse(files, key, contentTypeOf(key), {
      'Content-Disposition': disposition,
      'Cache-Control': 'private, max-age=300',
    });
  });

  app.get(`${FILES_PATHS.media}/*`, async (c) => {
    const raw = new URL(c.req.url).pathname.slice(FILES_PATHS.media.length + 1);
    let relative: string;
    try {
      relative = raw.split('/').map(decodeURIComponent).join('/');
    } catch {
      throw new HttpError(400, 'Malformed media path');
    }
    const key = checked(relative);
    // Public media are the server's own files (the seed's, named by the server): typed by their
    // key. What the media pipeline made is under a folder new to each run (media/...): immutable.
    const made = key.startsWith('media/');
    return fileResponse(files, key, contentTypeOf(key), {
      'Cache-Control': made ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    });
  });

  // An order's file, by the signed link the API gave a party of the order when it read the order
  // (repositories/urls.ts orderFile): one the media job made, typed by what the job made it; or
  // the original, as an attachment only, typed by the type its bytes were decoded as, never by the
  // uploader's file name: as sent for its uploader, without its location for the other party. Kept by the browser only.
  app.get(`${FILES_PATHS.orderFile}/:targetIdentifier`, async (c) => {
    const targetIdentifier = c.req.param('targetIdentifier');
    const query = c.req.query();
    const refusal = links.order.refusal(targetIdentifier, query);
    if (refusal) throw new HttpError(403, refusal);
    const stored = await repos.orders.filesOf(targetIdentifier);
    if (!stored) throw notFound('File');
    // The original as it was sent, metadata and all: the link its uploader is given (views/orders.ts).
    if (query.f === UPLOADED_ORIGINAL) {
      return fileResponse(files, stored.key, stored.contentType, {
        'Content-Disposition': contentDisposition(stored.fileName),
        'Cache-Control': 'private, max-age=300',
      });
    }
    const madeFiles = [...(stored.media?.derivatives ?? []), ...(stored.media?.video?.files ?? [])];
    const made = query.f ? madeFiles.find((d) => d.name === query.f) : undefined;
    if (query.f && !made) throw notFound('File');
    // A playlist names its files relatively: served with each made into its own signed link.
    if (made?.contentType === 'application/vnd.apple.mpegurl') {
      const playlist = await files.open(made.key);
      if (!playlist) throw notFound('File');
      // Each link lasts no longer than the playlist's own: following a playlist never extends access.
      const linkTo = (name: string) =>
        madeFiles.some((d) => d.name === name)
          ? repos.urls.orderFile(targetIdentifier, name, false, Number(query.exp))
          : null;
      const text = servedPlaylist(await new Response(playlist.body).text(), made.name, linkTo);
      return new Response(text, {
        headers: { ...FILE_HEADERS, 'Content-Type': made.contentType, 'Cache-Control': 'private, max-age=300' },
      });
    }
    // A file uploaded before the pipeline was checked by its leading bytes only, and is shown as it is.
    const attachment = query.download === '1' || (!made && stored.media !== null);
    // Streamed by the API from either store, not redirected to a presigned GET: a store's answer
    // cannot carry nosniff or the sandbox, and the link's expiry is the API's to enforce.
    // The original by any other link is the other party's copy: without where it was taken.
    return fileResponse(
      files,
      made?.key ?? stored.key,
      made?.contentType ?? stored.contentType,
      {
        'Content-Disposition': attachment
          ? contentDisposition(made ? madeFileName(stored.fileName, made.name) : stored.fileName)
          : 'inline',
        'Cache-Control': 'private, max-age=300',
      },
      { withoutLocation: !made },
    );
  });

  // A photo for sale's unmarked picture, or a file of a video for sale's ladder, by the signed link
  // the API gave its owner or a buyer when they read the item (views/content.ts): everyone
  // else is shown its watermarked preview. Streamed by the API, as an order's files are; kept by
  // the browser only. A playlist is served with each file it names made into its own link.
  app.get(`${CONTENT_FILE_PATH}/:identifier`, async (c) => {
    const identifier = c.req.param('identifier');
    const query = c.req.query();
    const file = links.content.check(identifier, query);
    if (file === ORIGINAL_FILE) {
      // What the creator uploaded, metadata and all, by the link its owner was given (a buyer's
      // is bound to the buyer: files/purchaseDownloads.ts): an attachment, typed as it was accepted.
      const original = await repos.content.original(identifier);
      if (!original) throw notFound('File');
      return fileResponse(files, original.key, original.contentType, {
        'Content-Disposition': contentDisposition(original.fileName),
        'Cache-Control': 'private, no-store',
      });
    }
    const privateFiles = await repos.content.privateFiles(identifier);
    const made = privateFiles.find((d) => d.name === file);
    if (!made) throw notFound('File');
    if (made.contentType === 'application/vnd.apple.mpegurl') {
      const playlist = await files.open(made.key);
      if (!playlist) throw notFound('File');
      // Each link lasts no longer than the playlist's own: following a playlist never extends access.
      const linkTo = (name: string) =>
        privateFiles.some((d) => d.name === name) ? repos.urls.contentFile(identifier, name, Number(query.exp)) : null;
      const text = servedPlaylist(await new Response(playlist.body).text(), made.name, linkTo);
      return new Response(text, {
        headers: { ...FILE_HEADERS, 'Content-Type': made.contentType, 'Cache-Control': 'private, max-age=300' },
      });
    }
    return fileResponse(files, made.key, made.contentType, {
      'Content-Disposition': 'inline',
      'Cache-Control': 'private, max-age=300',
    });
  });

  // The local store's upload target (an object store's presigned URL replaces it).
  // Bounded by the larger limit here; each type's own limit is checked once the target is known.
  const bodyLimit = Math.max(config.uploadMaxBytes, config.videoUploadMaxBytes);
  app.put(`${FILES_PATHS.upload}/:targetIdentifier`, limitBody(bodyLimit, 'The file'), async (c) => {
    const slot = await repos.orders.uploadSlot(c.req.param('targetIdentifier'));
    if (!slot) throw notFound('Upload target');
    const token = Buffer.from(c.req.query('token') ?? '');
    const expected = Buffer.from(slot.token);
    if (token.length !== expected.length || !timingSafeEqual(token, expected))
      throw new HttpError(403, 'Invalid upload token');
    if (slot.uploaded) throw new HttpError(409, 'This target already has its file');
    const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (declared !== slot.contentType) throw new HttpError(415, `Expected Content-Type ${slot.contentType}`);
    const work = await mkdtemp(join(tmpdir(), 'upload-'));
    try {
      const received = join(work, 'file');
      const limit = uploadLimit(config, slot.contentType);
      const file = await receiveUpload(c.req.raw.body, limit, received);
      const problem = uploadProblem(slot, file, limit);
      if (problem) throw new HttpError(problem.status, problem.reason);

      const order = await repos.orders.byRowId(slot.orderRowId);
      if (!order || isClosed(order)) throw orderClosed();

      // Stored under a key only the server knows, for the media job (media/jobs.ts) to decode and
      // remake; nothing of it is served before that.
      const key = orderFileKey(slot.orderId, slot.targetIdentifier, slot.contentType);
      await files.putFile(key, received, slot.contentType);
      const completion = await completeUpload(services, slot, key, file.size);
      if (completion !== 'recorded') await files.remove(key);
      if (completion === 'taken') throw new HttpError(409, 'This target already has its file');
      // Cancelled between the check and the write: the file is nobody's.
      if (completion === 'closed') throw orderClosed();
      return c.json({ targetId: slot.targetId, targetIdentifier: slot.targetIdentifier, sizeBytes: file.size });
    } finally {
      // The received copy: the store has its own now, or it was refused.
      await rm(work, { recursive: true, force: true });
    }
  });

  registerCoverUploadRoute(app, services);
}

/**
 * The local store's upload target of an event's new cover (uploadEventCover): the token is the
 * random name of the key the event holds (files/paths.ts coverSourceKey), so only the latest
 * upload the organizer asked for is taken, once. Checked as an order's upload is (size, leading
 * bytes against the type the key names), stored where nothing serves it, and queued for its
 * media job, which makes the cover shown.
 */
function registerCoverUploadRoute(app: Hono<AppEnv>, services: Services): void {
  const { repos, config, files, media } = services;
  app.put(`${FILES_PATHS.upload}/cover/:eventIdentifier`, limitBody(config.uploadMaxBytes, 'The file'), async (c) => {
    const eventIdentifier = c.req.param('eventIdentifier');
    const key = await repos.content.uploadedCover(eventIdentifier);
    const token = c.req.query('token') ?? '';
    const expected =
      key
        ?.split('/')
        .pop()
        ?.replace(/\.[^.]*$/, '') ?? '';
    const given = Buffer.from(token);
    if (!key || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
      throw new HttpError(403, 'Invalid upload token');
    if ((await files.size(key)) !== undefined) throw new HttpError(409, 'This cover was uploaded already');
    const contentType = contentTypeOf(key);
    const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (declared !== contentType) throw new HttpError(415, `Expected Content-Type ${contentType}`);
    const work = await mkdtemp(join(tmpdir(), 'upload-'));
    try {
      const received = join(work, 'file');
      const limit = uploadLimit(config, contentType);
      const file = await receiveUpload(c.req.raw.body, limit, received);
      const problem = uploadProblem({ contentType }, file, limit);
      if (problem) throw new HttpError(problem.status, problem.reason);
      await files.putFile(key, received, contentType);
      await media.send({ kind: 'cover', id: eventIdentifier }).catch((error: unknown) => {
        // Queued again when the organizer next reads their events (routes/events.ts).
        console.error(`[media] could not queue the cover of ${eventIdentifier}: ${String(error)}`);
      });
      return c.json({ eventIdentifier, sizeBytes: file.size });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}

/** A file the media job made, saved under the upload's name with the made file's extension ("venue.png" as "venue.jpg"). */
const madeFileName = (uploaded: string, made: string) =>
  `${uploaded.replace(/\.[^.]*$/, '') || 'file'}.${made.split('.').pop() ?? 'bin'}`;
