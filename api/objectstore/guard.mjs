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
import { createHmac, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';

/** How far a signed request's date may be from this clock, as S3 allows. */
const CLOCK_SKEW_MS = 15 * 60 * 1000;
/** The most a presigned POST's fields before its file may take. */
const POST_FIELDS_CAP = 64 * 1024;
/** A presigned POST's body around its file: the closing boundary and its line ends. */
const POST_CLOSING_ROOM = 1024;

/**
 * @typedef {{ actions: string[], prefixes?: string[], bucket?: boolean }} Grant
 *   `actions`: S3's names ('s3:GetObject'...) or '*'; `prefixes`: the object keys it covers;
 *   `bucket`: it covers the bucket itself (creating it, its CORS, listing it).
 * @typedef {{ secret: string, grants: Grant[] }} StoreKey
 * @typedef {import('node:http').IncomingHttpHeaders} Headers
 */

/** The API's grants: anything in the bucket, nothing else. */
export const API_GRANTS = [{ actions: ['*'], prefixes: [''], bucket: true }];
/**
 * The media workers' grants: read the sources (and what they made), write and remove what they
 * make beside them, remove a refused or replaced source (docker-compose.yml's media-worker-bucket).
 */
export const WORKER_GRANTS = [
  { actions: ['s3:GetBucketLocation'], bucket: true },
  { actions: ['s3:GetObject'], prefixes: ['quarantine/', 'uploads/', 'sources/', 'orders/', 'media/', 'unmarked/'] },
  { actions: ['s3:PutObject', 's3:DeleteObject'], prefixes: ['media/', 'orders/', 'unmarked/'] },
  { actions: ['s3:DeleteObject'], prefixes: ['quarantine/', 'sources/'] },
];

/** @param {string | Buffer} key @param {string} data */
const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
/** @param {string} data */
const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
/** @param {unknown} a @param {string} b */
const sameHex = (a, b) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.length === b.length &&
  timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Signature V4's signing key of `secret` for a day, region and service.
 * @param {string} secret @param {string} day @param {string} region @param {string} service
 */
export function signingKey(secret, day, region, service) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
}

/** RFC 3986 escaping, as Signature V4 canonicalises a query. */
/** @param {string} text */
const escape = (text) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A raw query as pairs, decoded (`+` is a plus: S3's clients escape a space as %20). */
/**
 * @param {string} raw
 * @returns {[string, string][]}
 */
function queryPairs(raw) {
  if (!raw) return [];
  return raw
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      const [name, value] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      return /** @type {[string, string]} */ ([decodeURIComponent(name), decodeURIComponent(value)]);
    });
}

/** The canonical query of `pairs`, without `omit` (a presigned URL's own signature). */
/** @param {[string, string][]} pairs @param {string} [omit] */
function canonicalQuery(pairs, omit) {
  return (
    pairs
      .filter(([name]) => name !== omit)
      .map(([name, value]) => [escape(name), escape(value)])
      // By name, then by value (as strings of code points: the escaped text is ASCII).
      .sort(([a = '', x = ''], [b = '', y = '']) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&')
  );
}

/** `20260101T000000Z` as a time, or NaN. */
/** @param {string | undefined} value */
function amzTime(value) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) return NaN;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second);
}

/** `id/day/region/service/aws4_request`, parsed. */
/** @param {string | undefined} value */
function credentialOf(value) {
  const parts = String(value ?? '').split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return null;
  const [id = '', day = '', region = '', service = ''] = parts;
  return { id, day, region, service };
}

/**
 * Whether the signature is the one `key` makes of the canonical request, for the credential's
 * scope and date; the reason when not.
 * @param {{ keys: Map<string, StoreKey>, credential: { id: string, day: string, region: string, service: string },
 *   date: string, signedHeaders: string, signature: string | undefined, method: string, path: string, query: string,
 *   headers: Headers, payload: string }} request
 * @returns {string | null} null when it is
 */
function checkSignature({ keys, credential, date, signedHeaders, signature, method, path, query, headers, payload }) {
  const key = keys.get(credential.id);
  if (!key) return 'an unknown access key';
  if (credential.service !== 's3' || date.slice(0, 8) !== credential.day) return 'a credential of another scope';
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return 'the host is not signed';
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [method, path, query, canonicalHeaders, signedHeaders, payload].join('\n');
  const scope = `${credential.day}/${credential.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const expected = hmac(signingKey(key.secret, credential.day, credential.region, 's3'), toSign).toString('hex');
  return sameHex(signature, expected) ? null : 'the signature does not match';
}

/**
 * Who signed the request and whether the signature holds (header or presigned URL).
 * @param {{ method: string, url: string, headers: Headers }} request
 * @param {Map<string, StoreKey>} keys
 * @param {number} [now]
 * @returns {{ id: string } | { refused: string }}
 */
export function signerOf({ method, url, headers }, keys, now = Date.now()) {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const pairs = queryPairs(at < 0 ? '' : url.slice(at + 1));
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
    if (!m) return { refused: 'only Signature Version 4 is accepted' };
    const credential = credentialOf(m[1]);
    const date = String(headers['x-amz-date'] ?? '');
    if (!credential) return { refused: 'a malformed credential' };
    if (!(Math.abs(amzTime(date) - now) <= CLOCK_SKEW_MS)) return { refused: 'the request is not of this time' };
    const payload = headers['x-amz-content-sha256'];
    if (typeof payload !== 'string' || payload === '') return { refused: 'no payload hash' };
    const reason = checkSignature({
      keys,
      credential,
      date,
      signedHeaders: m[2] ?? '',
      signature: m[3],
      method,
      path,
      query: canonicalQuery(pairs),
      headers,
      payload,
    });
    return reason ? { refused: reason } : { id: credential.id };
  }
  /** @param {string} name */
  const param = (name) => pairs.find(([n]) => n === name)?.[1];
  if (param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { refused: 'only Signature Version 4 is accepted' };
    const credential = credentialOf(param('X-Amz-Credential'));
    const date = param('X-Amz-Date') ?? '';
    const expires = Number(param('X-Amz-Expires'));
    const signedAt = amzTime(date);
    if (!credential) return { refused: 'a malformed credential' };
    if (!(Number.isInteger(expires) && expires > 0 && expires <= 7 * 24 * 3600))
      return { refused: 'a malformed expiry' };
    if (!(signedAt - CLOCK_SKEW_MS <= now && now <= signedAt + expires * 1000))
      return { refused: 'the link has expired' };
    const reason = checkSignature({
      keys,
      credential,
      date,
      signedHeaders: param('X-Amz-SignedHeaders') ?? '',
      signature: param('X-Amz-Signature'),
      method,
      path,
      query: canonicalQuery(pairs, 'X-Amz-Signature'),
      headers,
      payload: 'UNSIGNED-PAYLOAD',
    });
    return reason ? { refused: reason } : { id: credential.id };
  }
  return { refused: 'the request is not signed' };
}

/**
 * What a path-style request does, in S3's action names, and on which bucket and object keys.
 * @param {{ method: string, url: string, headers: Headers }} request
 * @returns {{ bucket: string, actions: { action: string, key: string | null }[] }}
 */
export function actionsOf({ method, url, headers }) {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = new Set(queryPairs(at < 0 ? '' : url.slice(at + 1)).map(([name]) => name));
  const slash = path.indexOf('/', 1);
  const bucket = decodeURIComponent(slash < 0 ? path.slice(1) : path.slice(1, slash));
  const key = slash < 0 || slash === path.length - 1 ? null : decodeURIComponent(path.slice(slash + 1));
  if (bucket === '') return { bucket, actions: [{ action: 's3:ListAllMyBuckets', key: null }] };
  if (key === null) {
    const bucketAction = {
      GET: query.has('location') ? 's3:GetBucketLocation' : query.has('cors') ? 's3:GetBucketCORS' : 's3:ListBucket',
      HEAD: 's3:ListBucket',
      PUT: query.has('cors') ? 's3:PutBucketCORS' : 's3:CreateBucket',
      DELETE: query.has('cors') ? 's3:PutBucketCORS' : 's3:DeleteBucket',
      // Deleting many objects at once: the keys are in the body, so only a grant of everything covers it.
      POST: query.has('delete') ? 's3:DeleteObjects' : 's3:PutObject',
    }[method];
    return { bucket, actions: [{ action: bucketAction ?? 'unknown', key: null }] };
  }
  const objectAction = {
    GET: 's3:GetObject',
    HEAD: 's3:GetObject',
    PUT: 's3:PutObject',
    POST: 's3:PutObject',
    DELETE: query.has('uploadId') ? 's3:AbortMultipartUpload' : 's3:DeleteObject',
  }[method];
  const actions = [{ action: objectAction ?? 'unknown', key }];
  const source = headers['x-amz-copy-source'];
  if (method === 'PUT' && typeof source === 'string') {
    // `bucket/key` of the object copied, read as a GetObject of that key.
    const decoded = decodeURIComponent(source.replace(/^\//, '').split('?')[0] ?? '');
    const cut = decoded.indexOf('/');
    if (cut < 0 || decoded.slice(0, cut) !== bucket) return { bucket, actions: [{ action: 'unknown', key }] };
    actions.push({ action: 's3:GetObject', key: decoded.slice(cut + 1) });
  }
  return { bucket, actions };
}

/**
 * Whether `grants` allow `action` on `key` (null: the bucket itself).
 * @param {Grant[]} grants @param {string} action @param {string | null} key
 */
export function granted(grants, action, key) {
  return grants.some(
    (grant) =>
      (grant.actions.includes('*') || grant.actions.includes(action)) &&
      (key === null ? grant.bucket === true : (grant.prefixes ?? []).some((prefix) => key.startsWith(prefix))),
  );
}

/**
 * The fields of a multipart body before its `file` part, if `head` reaches that part.
 * @param {Buffer} head @param {string} boundary
 * @returns {{ fields: Map<string, string>, fileAt: number } | null | 'malformed'}
 */
function fieldsBeforeFile(head, boundary) {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = new Map();
  let at = head.indexOf(delimiter);
  if (at !== 0) return at < 0 ? null : 'malformed';
  for (;;) {
    const partStart = at + delimiter.length + 2;
    if (head.length < partStart) return null;
    if (head.subarray(at + delimiter.length, partStart).toString('latin1') !== '\r\n') return 'malformed';
    const headersEnd = head.indexOf('\r\n\r\n', partStart);
    if (headersEnd < 0) return null;
    const partHeaders = head.subarray(partStart, headersEnd).toString('utf8');
    const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(partHeaders)?.[1];
    if (name === undefined) return 'malformed';
    const valueStart = headersEnd + 4;
    if (name === 'file') return { fields, fileAt: valueStart };
    const next = head.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), valueStart);
    if (next < 0) return null;
    const field = name.toLowerCase();
    if (fields.has(field)) return 'malformed';
    fields.set(field, head.subarray(valueStart, next).toString('utf8'));
    at = next + 2;
  }
}

/**
 * Whether a presigned POST's fields are signed by a known key with a policy that allows them.
 * @param {Map<string, string>} fields @param {string} bucket @param {Map<string, StoreKey>} keys @param {number} [now]
 * @returns {{ id: string, key: string, maxBytes: number } | { refused: string }}
 */
export function postSignerOf(fields, bucket, keys, now = Date.now()) {
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') return { refused: 'only Signature Version 4 is accepted' };
  const credential = credentialOf(fields.get('x-amz-credential'));
  const policyText = fields.get('policy');
  const objectKey = fields.get('key');
  if (!credential || !policyText || !objectKey) return { refused: 'a policy, a credential and a key are needed' };
  const storeKey = keys.get(credential.id);
  if (!storeKey) return { refused: 'an unknown access key' };
  const expected = hmac(signingKey(storeKey.secret, credential.day, credential.region, 's3'), policyText).toString(
    'hex',
  );
  if (!sameHex(fields.get('x-amz-signature'), expected)) return { refused: 'the signature does not match' };
  let policy;
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8'));
  } catch {
    return { refused: 'a malformed policy' };
  }
  if (!(Date.parse(policy?.expiration) > now)) return { refused: 'the policy has expired' };
  if (!Array.isArray(policy.conditions)) return { refused: 'a malformed policy' };
  const covered = new Set(['policy', 'x-amz-signature', 'file']);
  /** @param {string} name */
  const valueOf = (name) => (name === 'bucket' ? bucket : fields.get(name));
  let maxBytes = null;
  for (const condition of policy.conditions) {
    if (Array.isArray(condition)) {
      const [op, field, value] = condition;
      if (op === 'content-length-range') {
        if (!Number.isInteger(value)) return { refused: 'a malformed policy' };
        maxBytes = value;
        continue;
      }
      const name = String(field).replace(/^\$/, '').toLowerCase();
      const actual = valueOf(name);
      if (op === 'eq' ? actual !== value : op === 'starts-with' ? !String(actual ?? '').startsWith(value) : true)
        return { refused: `the policy does not allow this ${name}` };
      covered.add(name);
    } else if (condition && typeof condition === 'object') {
      for (const [field, value] of Object.entries(condition)) {
        const name = field.toLowerCase();
        if (valueOf(name) !== value) return { refused: `the policy does not allow this ${name}` };
        covered.add(name);
      }
    } else return { refused: 'a malformed policy' };
  }
  for (const name of fields.keys()) if (!covered.has(name)) return { refused: `the policy does not name ${name}` };
  if (maxBytes === null) return { refused: 'the policy sets no size' };
  return { id: credential.id, key: objectKey, maxBytes };
}

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
