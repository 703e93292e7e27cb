import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { ALL_PURCHASES, PURCHASE_DOWNLOAD_PATH, purchaseDownloadLinks } from './purchaseLinks.js';
import { stripsLocation, withoutLocation } from './stripLocation.js';
import { zipDownload } from './zipStream.js';

export function registerPurchaseDownloads(app: Hono<AppEnv>, { repos, files, config }: Services): void {
  const links = purchaseDownloadLinks(config.fileLinkKey);
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
    return zipDownload(
      files,
      owned.map((item) => ({ key: item.file_path, fileName: item.filename, contentType: item.content_type })),
      'purchases.zip',
    );
  });

  app.get(`${PURCHASE_DOWNLOAD_PATH}/:identifier`, async (c) => {
    const identifier = c.req.param('identifier');
    const userId = userOf(c, identifier);
    const file = await repos.purchases.ownedFile(userId, identifier);
    if (!file) throw new HttpError(403, 'This item was not bought by this account');
    const opened = await files.open(file.file_path);
    if (!opened) throw new HttpError(404, 'File not found');
    const ascii = file.filename.replace(/[^\w.\- ]/g, '_') || 'download';
    // The buyer's copy: without where it was taken (files/stripLocation.ts), so without a length when it is cut.
    const stripped = stripsLocation(file.content_type);
    return new Response(stripped ? withoutLocation(opened.body, file.content_type) : opened.body, {
      headers: {
        'Content-Type': file.content_type,
        ...(stripped ? {} : { 'Content-Length': String(opened.size) }),
        'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
