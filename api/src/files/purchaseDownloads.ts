import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import archiver from 'archiver';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { ALL_PURCHASES, PURCHASE_DOWNLOAD_PATH, purchaseDownloadLinks } from './purchaseLinks.js';

/** A name for a file inside the ZIP: no folders, no path tricks. */
const zipEntryName = (name: string) => name.replace(/[\\/]/g, '_').replace(/^\.+/, '_') || 'file';

export function registerPurchaseDownloads(app: Hono<AppEnv>, { repos, files, config }: Services): void {
  const links = purchaseDownloadLinks(config.adminToken);
  const userOf = (c: Context<AppEnv>, item: string) => {
    const userId = links.check(item, c.req.query());
    const session = c.get('user');
    if (session && session.id !== userId) throw new HttpError(403, 'This download belongs to another account');
    return userId;
  };

  app.get(`${PURCHASE_DOWNLOAD_PATH}/${ALL_PURCHASES}`, async (c) => {
    const userId = userOf(c, ALL_PURCHASES);
    const owned = await repos.purchases.owned(userId);
    if (owned.length === 0) throw new HttpError(403, 'You have not bought anything to download');
    // Streamed: each original is read from the store as the ZIP is sent, never held whole (store, no compression: photos and videos are compressed already).
    const zip = archiver('zip', { store: true });
    const used = new Set<string>();
    void (async () => {
      try {
        for (const item of owned) {
          const file = await files.open(item.file_path);
          if (!file) continue;
          let name = zipEntryName(item.filename);
          for (let n = 2; used.has(name); n++) name = `${n}-${zipEntryName(item.filename)}`;
          used.add(name);
          const entry = Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>);
          zip.append(entry, { name });
          // One file open at a time: wait until the archive has consumed this one.
          await new Promise<void>((resolve, reject) => {
            entry.once('end', resolve);
            entry.once('error', reject);
          });
        }
        await zip.finalize();
      } catch (error) {
        zip.abort();
        console.error('[files] a purchases ZIP stopped:', error instanceof Error ? error.message : String(error));
      }
    })();
    return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': 'attachment; filename="purchases.zip"',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  app.get(`${PURCHASE_DOWNLOAD_PATH}/:identifier`, async (c) => {
    const identifier = c.req.param('identifier');
    const userId = userOf(c, identifier);
    const file = await repos.purchases.ownedFile(userId, identifier);
    if (!file) throw new HttpError(403, 'This item was not bought by this account');
    const opened = await files.open(file.file_path);
    if (!opened) throw new HttpError(404, 'File not found');
    const ascii = file.filename.replace(/[^\w.\- ]/g, '_') || 'download';
    return new Response(opened.body, {
      headers: {
        'Content-Type': file.content_type,
        'Content-Length': String(opened.size),
        'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
