// A built app's files as production serves them: hashed chunks and released versions cached for
// a year (immutable), fixed names revalidated on every load (no-cache + ETag), text gzipped (kept
// compressed per file until it changes).
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';

/** @type {Record<string, string>} */
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.json', '.css', '.map', '.svg', '.txt']);
const HASHED = /\.[0-9a-f]{8}\.(js|css)$/;
/** A file of a released version in the release store (`<remote>/<version>/...`): never changes. */
const RELEASED = /^\/[A-Za-z]+\/[0-9a-f]{12}\//;

/**
 * Sends the files of one app's build, with one gzip cache of its own.
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, file: string, pathname: string) => void}
 */
export function staticFiles() {
  /** @type {Map<string, { etag: string, body: Buffer }>} */
  const gzipCache = new Map();
  return (req, res, file, pathname) => {
    const ext = extname(file);
    const stat = statSync(file);
    const etag = `W/"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`;
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control':
        HASHED.test(file) || RELEASED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: etag,
      Vary: 'Accept-Encoding',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    if (gzip) {
      let cached = gzipCache.get(file);
      if (!cached || cached.etag !== etag) {
        cached = { etag, body: gzipSync(readFileSync(file)) };
        gzipCache.set(file, cached);
      }
      res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': cached.body.length });
      res.end(req.method === 'HEAD' ? undefined : cached.body);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': stat.size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };
}
