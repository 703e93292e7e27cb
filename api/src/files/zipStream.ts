import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import archiver from 'archiver';
import { messageOf } from '@marketplace/shared/errors';
import { contentTypeOf } from './paths.js';
import { withoutLocation } from './stripLocation.js';
import type { FileStore } from './fileStore.js';

/** A name for a file inside the ZIP: no folders, no path tricks. */
const zipEntryName = (name: string) => name.replace(/[\\/]/g, '_').replace(/^\.+/, '_') || 'file';

/**
 * A ZIP of stored files as a download, streamed: each file is read from the store as the ZIP is
 * sent, one at a time, never held whole (stored, not compressed: photos and videos are compressed
 * already). Names repeated inside are numbered ("2-photo.jpg"); a file gone from the store is left
 * out. A failure midway ends the download short (the browser reports it failed), and is logged.
 * Every file goes without where it was taken (files/stripLocation.ts): a ZIP is someone else's
 * copy of originals (the other party's, a buyer's), typed as accepted or by the key the server chose.
 */
export function zipDownload(
  files: FileStore,
  entries: readonly { key: string; fileName: string; contentType?: string }[],
  downloadName: string,
): Response {
  const zip = archiver('zip', { store: true });
  const used = new Set<string>();
  void (async () => {
    try {
      for (const entry of entries) {
        const file = await files.open(entry.key);
        if (!file) continue;
        let name = zipEntryName(entry.fileName);
        for (let n = 2; used.has(name); n++) name = `${n}-${zipEntryName(entry.fileName)}`;
        used.add(name);
        const body = withoutLocation(file.body, entry.contentType ?? contentTypeOf(entry.key));
        const stream = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
        zip.append(stream, { name });
        // One file open at a time: wait until the archive has consumed this one.
        await new Promise<void>((resolve, reject) => {
          stream.once('end', resolve);
          stream.once('error', reject);
        });
      }
      await zip.finalize();
    } catch (error) {
      zip.abort();
      console.error(`[files] ${downloadName} stopped:`, messageOf(error));
    }
  })();
  return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${downloadName}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
