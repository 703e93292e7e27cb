import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { FILES_PATHS } from '@marketplace/shared/contract';
import type { AppEnv } from '../http/env.js';
import { limitBody } from '../http/limits.js';
import { HttpError, notFound, orderClosed } from '../http/errors.js';
import type { Services } from '../services.js';
import { contentTypeOf } from './paths.js';
import type { FileStore } from './store.js';
import { completeUpload, uploadProblem } from './uploads.js';
import { isClosed } from '../domain/orders.js';

/** Streams a stored file, or answers 404. */
async function fileResponse(files: FileStore, key: string, headers: Record<string, string>): Promise<Response> {
  const file = await files.open(key);
  if (!file) throw notFound('File');
  return new Response(file.body, {
    headers: { 'Content-Type': contentTypeOf(key), 'Content-Length': String(file.size), ...headers },
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
  const checked = (key: string, field?: string): string => {
    const problem = files.check(key);
    if (problem) throw new HttpError(400, problem, field);
    return key;
  };

  app.get(FILES_PATHS.download, async (c) => {
    const key = checked(c.req.query('filePath') ?? '', 'filePath');
    const fileName = c.req.query('fileName') || key.split('/').pop() || 'download';
    const disposition = contentDisposition(fileName);
    if (files.kind === 's3') {
      if ((await files.size(key)) === undefined) throw notFound('File');
      const url = await files.presignDownload(key, contentTypeOf(key), disposition);
      if (url) return c.redirect(url, 302);
    }
    return fileResponse(files, key, { 'Content-Disposition': disposition, 'Cache-Control': 'private, max-age=300' });
  });

  app.get(`${FILES_PATHS.media}/*`, async (c) => {
    const raw = new URL(c.req.url).pathname.slice(FILES_PATHS.media.length + 1);
    let relative: string;
    try {
      relative = raw.split('/').map(decodeURIComponent).join('/');
    } catch {
      throw new HttpError(400, 'Malformed media path');
    }
    return fileResponse(files, checked(relative), { 'Cache-Control': 'public, max-age=3600' });
  });

  // The local store's upload target (an object store's presigned URL replaces it).
  app.put(`${FILES_PATHS.upload}/:targetIdentifier`, limitBody(config.uploadMaxBytes, 'The file'), async (c) => {
    const slot = await repos.orders.uploadSlot(c.req.param('targetIdentifier'));
    if (!slot) throw notFound('Upload target');
    const token = Buffer.from(c.req.query('token') ?? '');
    const expected = Buffer.from(slot.token);
    if (token.length !== expected.length || !timingSafeEqual(token, expected))
      throw new HttpError(403, 'Invalid upload token');
    if (slot.uploaded) throw new HttpError(409, 'This target already has its file');
    const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (declared !== slot.contentType) throw new HttpError(415, `Expected Content-Type ${slot.contentType}`);
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const problem = uploadProblem(slot, { size: bytes.length, leading: bytes }, config.uploadMaxBytes);
    if (problem) throw new HttpError(problem.status, problem.reason);

    const order = await repos.orders.byRowId(slot.orderRowId);
    if (!order || isClosed(order)) throw orderClosed();

    await files.put(slot.key, bytes, slot.contentType);
    const completion = await completeUpload(services, slot, bytes.length);
    if (completion === 'taken') throw new HttpError(409, 'This target already has its file');
    if (completion === 'closed') {
      // Cancelled between the check and the write: the file is nobody's.
      await files.remove(slot.key);
      throw orderClosed();
    }
    return c.json({ targetId: slot.targetId, targetIdentifier: slot.targetIdentifier, sizeBytes: bytes.length });
  });
}
