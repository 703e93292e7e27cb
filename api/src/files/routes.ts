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
import { otherParty } from '../domain/orders.js';
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
  return new Response(body, {
    headers: { 'Content-Type': contentTypeOf(path), 'Content-Length': String(size), ...headers },
  });
}

/** A file name safe inside a quoted Content-Disposition, with the full name in filename*. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\w.\- ]/g, '_') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const safeFileName = (name: string) => name.replace(/[^\w.-]/g, '_').slice(0, 120) || 'upload';

/** The files host: downloads, media (images, HLS playlists and segments), and upload targets. */
export function registerFileRoutes(app: Hono<AppEnv>, services: Services): void {
  const { repos, config } = services;

  app.get(FILES_PATHS.download, (c) => {
    const filePath = c.req.query('filePath') ?? '';
    const resolved = resolveMediaPath(config.mediaDir, filePath);
    if (!resolved.ok) throw new HttpError(400, resolved.reason, 'filePath');
    const fileName = c.req.query('fileName') || filePath.split('/').pop() || 'download';
    return fileResponse(resolved.path, {
      'Content-Disposition': contentDisposition(fileName),
      'Cache-Control': 'private, max-age=300',
    });
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
    if (bytes.length === 0) throw new HttpError(400, 'The file is empty');
    if (!matchesImageType(bytes, slot.contentType))
      throw new HttpError(400, `The file is not a ${slot.contentType} image`);

    const order = await repos.orders.byRowId(slot.orderRowId);
    if (!order) throw notFound('Order');
    const relative = `uploads/${order.orderId}/${slot.targetIdentifier}-${safeFileName(slot.fileName)}`;
    const full = join(config.mediaDir, relative);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, bytes);
    await repos.transaction(async (tx) => {
      await tx.orders.markUploaded(slot.targetId, relative, bytes.length);
      await notifyUser(
        { repos: tx, live: services.live },
        otherParty(order, slot.uploaderId),
        `New upload "${slot.fileName}" on order ${order.orderId}.`,
        PAGES.eventOrder.href({ orderId: order.orderId }),
      );
    });
    return c.json({ targetId: slot.targetId, targetIdentifier: slot.targetIdentifier, sizeBytes: bytes.length });
  });
}
