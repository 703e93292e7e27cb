// A browser's upload by a presigned POST: the form's fields before its file, and whether a known
// key signed a policy that allows them.
import { credentialOf, hmac, sameHex, signingKey } from './signature.mjs';

/** @typedef {import('./grants.mjs').StoreKey} StoreKey */

/**
 * The fields of a multipart body before its `file` part, if `head` reaches that part.
 * @param {Buffer} head @param {string} boundary
 * @returns {{ fields: Map<string, string>, fileAt: number } | null | 'malformed'}
 */
export function fieldsBeforeFile(head, boundary) {
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
