import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import archiver from 'archiver';
import type { FileStore } from './store.js';

/** A name for a file inside the ZIP: no folders, no path tricks. */
const zipEntryName = (name: string) => name.replace(/[\\/]/g, '_').replace(/^\.+/, '_') || 'file';

/**
 * A ZIP of stored files as a download, streamed: each file is read from the store as the ZIP is
 * sent, one at a time, never held whole (stored, not compressed: photos and videos are compressed
 * already). Names repeated inside are numbered ("2-photo.jpg"); a file gone from the store is left
 * out. A failure midway ends the download short (the browser reports it failed), and is logged.
 */
export function zipDownload(
  files: FileStore,
  entries: readonly { key: string; fileName: string }[],
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
        const stream = Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>);
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
      console.error(`[files] ${downloadName} stopped:`, error instanceof Error ? error.message : String(error));
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
