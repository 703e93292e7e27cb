import { createReadStream, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { FILES_PATHS } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import type { AppEnv } from '../http/env.js';
import { limitBody } from '../http/limits.js';
import { HttpError, notFound } from '../http/errors.js';
import { nowIso } from '../model.js';
import { findOrderById } from '../routes/orders.js';
import { notifyUser, type Services } from '../services.js';
import { contentTypeOf, matchesImageType, resolveMediaPath } from './paths.js';

function fileResponse(path: string, headers: Record<string, string>): Response {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw notFound('File');
    size = stat.size;
  } catch {
    throw notFound('File');
  }
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: { 'Content-Type': contentTypeOf(path), 'Content-Length': String(size), ...headers } });
}

/** A file name safe inside a quoted Content-Disposition, with the full name in filename*. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\w.\- ]/g, '_') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const safeFileName = (name: string) => name.replace(/[^\w.-]/g, '_').slice(0, 120) || 'upload';

/** The files host: downloads, media (images, HLS playlists and segments), and upload targets. */
export function registerFileRoutes(app: Hono<AppEnv>, services: Services): void {
  const { db, config } = services;

  app.get(FILES_PATHS.download, (c) => {
    const filePath = c.req.query('filePath') ?? '';
    const resolved = resolveMediaPath(config.mediaDir, filePath);
    if (!resolved.ok) throw new HttpError(400, resolved.reason, 'filePath');
    const fileName = c.req.query('fileName') || filePath.split('/').pop() || 'download';
    return fileResponse(resolved.path, { 'Content-Disposition': contentDisposition(fileName), 'Cache-Control': 'private, max-age=300' });
  });

  app.get(`${FILES_PATHS.media}/*`, (c) => {
    const raw = new URL(c.req.url).pathname.slice(FILES_PATHS.media.length + 1);
    let relative: string;
    try {
      relative = raw.split('/').map(decodeURIComponent).join('/');
    } catch {
      throw new HttpError(400, 'Malformed media path');
    }
    const resolved = resolveMediaPath(config.mediaDir, relative);
    if (!resolved.ok) throw new HttpError(400, resolved.reason);
    return fileResponse(resolved.path, { 'Cache-Control': 'public, max-age=3600' });
  });

  app.put(
    `${FILES_PATHS.upload}/:targetIdentifier`,
    limitBody(config.uploadMaxBytes, 'The file'),
    async (c) => {
      const target = db
        .prepare('SELECT id, identifier, order_id, uploader_id, file_name, content_type, upload_token, uploaded_at FROM order_targets WHERE identifier = ?')
        .get(c.req.param('targetIdentifier')) as
        | { id: number; identifier: string; order_id: number; uploader_id: number; file_name: string; content_type: string; upload_token: string; uploaded_at: string | null }
        | undefined;
      if (!target) throw notFound('Upload target');
      const token = Buffer.from(c.req.query('token') ?? '');
      const expected = Buffer.from(target.upload_token);
      if (token.length !== expected.length || !timingSafeEqual(token, expected)) throw new HttpError(403, 'Invalid upload token');
      if (target.uploaded_at) throw new HttpError(409, 'This target already has its file');
      const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (declared !== target.content_type) throw new HttpError(415, `Expected Content-Type ${target.content_type}`);
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.length === 0) throw new HttpError(400, 'The file is empty');
      if (!matchesImageType(bytes, target.content_type)) throw new HttpError(400, `The file is not a ${target.content_type} image`);

      const order = findOrderById(services, target.order_id);
      if (!order) throw notFound('Order');
      const relative = `uploads/${order.order_id}/${target.identifier}-${safeFileName(target.file_name)}`;
      const full = join(config.mediaDir, relative);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, bytes);
      db.transaction(() => {
        db.prepare('UPDATE order_targets SET file_path = ?, size_bytes = ?, uploaded_at = ? WHERE id = ?').run(relative, bytes.length, nowIso(), target.id);
        const other = target.uploader_id === order.client_id ? order.photographer_id : order.client_id;
        notifyUser(services, other, `New upload "${target.file_name}" on order ${order.order_id}.`, PAGES.eventOrder.href({ orderId: order.order_id }));
      })();
      return c.json({ targetId: target.id, targetIdentifier: target.identifier, sizeBytes: bytes.length });
    },
  );
}
