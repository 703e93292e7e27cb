// What a key may do in the store: the grants of each key and the S3 actions a request asks for.
import { queryPairs } from './signature.mjs';

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
