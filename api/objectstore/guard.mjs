// The object store's door for s3rver, which checks no Signature V4 and has no users: every request
// is checked here against the store's keys, each with its own secret and its own grants, before it
// reaches s3rver on a loopback port of its own. The three ways S3 is signed are checked:
// an Authorization header (the SDK's calls), a presigned URL (a browser's download) and a presigned
// POST's policy (a browser's upload). A key may do only what its grants say, the same grants as
// docker-compose's MinIO users: the API's key anything in its bucket, the media workers' key read
// the sources and write what they make.
//
// What it does not do: it does not hash a signed request's body against its x-amz-content-sha256
// (the body streams through; loopback has no one in the middle to change it), and a POST's
// content-length-range is held to the request's size (an empty file is refused by the API,
// which reads every upload again).
//
// The checks live beside it: signature.mjs (header and presigned URL), post-policy.mjs (presigned
// POST), grants.mjs (what each key may do).
import { createServer, request as httpRequest } from 'node:http';
import { actionsOf, granted } from './grants.mjs';
import { fieldsBeforeFile, postSignerOf } from './post-policy.mjs';
import { signerOf } from './signature.mjs';

/** The most a presigned POST's fields before its file may take. */
const POST_FIELDS_CAP = 64 * 1024;
/** A presigned POST's body around its file: the closing boundary and its line ends. */
const POST_CLOSING_ROOM = 1024;

/** @typedef {import('./grants.mjs').StoreKey} StoreKey */

/**
 * S3's answer to a refused request (the SDK reads its code), readable cross-origin.
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 * @param {number} status @param {string} code @param {string} message
 */
function refuse(req, res, status, code, message) {
  if (res.headersSent) return void res.destroy();
  const origin = req.headers.origin;
  res.writeHead(status, {
    'Content-Type': 'application/xml',
    ...(typeof origin === 'string' && { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }),
  });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/**
 * Listens on 127.0.0.1:`port` and passes what `keys` may do in `bucket` (and nothing in any other)
 * to the store at 127.0.0.1:`upstreamPort`.
 * @param {{ port: number, upstreamPort: number, bucket: string, keys: Map<string, StoreKey> }} options
 * @returns {Promise<{ stop(): Promise<void> }>}
 */
export async function startGuard({ port, upstreamPort, bucket: ownBucket, keys }) {
  /**
   * Forwards the request, `head` (bytes already read of its body) first, then the rest of it.
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   * @param {Buffer | null} [head] @param {number} [cap]
   */
  const forward = (req, res, head = null, cap = Infinity) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => refuse(req, res, 502, 'ServiceUnavailable', 'The store did not answer'));
    let sent = 0;
    /** @param {Buffer} chunk */
    const write = (chunk) => {
      sent += chunk.length;
      if (sent > cap) {
        upstream.destroy();
        req.unpipe();
        refuse(req, res, 400, 'EntityTooLarge', 'The file is larger than the policy allows');
        return;
      }
      upstream.write(chunk);
    };
    if (head) write(head);
    req.on('data', write);
    req.on('end', () => upstream.end());
    req.resume();
  };

  const server = createServer((req, res) => {
    res.on('error', () => undefined);
    req.on('error', () => res.destroy());
    if (req.method === 'OPTIONS') return forward(req, res);
    const url = req.url ?? '/';
    const contentType = String(req.headers['content-type'] ?? '');
    const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    const { bucket, actions } = actionsOf({ method: req.method ?? 'GET', url, headers: req.headers });
    if (bucket !== ownBucket) return refuse(req, res, 403, 'AccessDenied', 'No key may use another bucket');
    if (req.method === 'POST' && boundary && actions[0]?.key === null && !req.headers.authorization) {
      // A browser's upload by a presigned POST: its fields come before the file.
      /** @type {Buffer[]} */
      const chunks = [];
      let length = 0;
      /** @param {Buffer} chunk */
      const onData = (chunk) => {
        chunks.push(chunk);
        length += chunk.length;
        const head = Buffer.concat(chunks, length);
        const read = fieldsBeforeFile(head, boundary);
        if (read === null && length <= POST_FIELDS_CAP) return;
        req.off('data', onData);
        req.pause();
        if (read === null || read === 'malformed')
          return refuse(req, res, 400, 'MalformedPOSTRequest', 'The form is not a presigned upload');
        const signer = postSignerOf(read.fields, bucket, keys);
        if ('refused' in signer) return refuse(req, res, 403, 'AccessDenied', signer.refused);
        if (!granted(keys.get(signer.id)?.grants ?? [], 's3:PutObject', signer.key))
          return refuse(req, res, 403, 'AccessDenied', 'The key may not write there');
        forward(req, res, head, read.fileAt + signer.maxBytes + POST_CLOSING_ROOM);
      };
      req.on('data', onData);
      return;
    }
    const signer = signerOf({ method: req.method ?? 'GET', url, headers: req.headers }, keys);
    if ('refused' in signer) return refuse(req, res, 403, 'AccessDenied', signer.refused);
    const grants = keys.get(signer.id)?.grants ?? [];
    if (!actions.every(({ action, key }) => granted(grants, action, key)))
      return refuse(req, res, 403, 'AccessDenied', 'The key may not do that');
    forward(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
