import { API_CALLS, type CallName } from './calls.js';

/** One contract call as HTTP, without an origin: what the browser's client and the API's tests send. */
export interface EncodedCall {
  method: string;
  /** The path with its `:params` filled in (URL-encoded) and, for a query call, the query. */
  path: string;
  body: URLSearchParams | FormData | undefined;
  credentials: boolean;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/**
 * Encodes a call the way the shared table says: method, path parameters, and the remaining
 * fields as a query, a form or a multipart body. Absent (undefined or null) fields are left out.
 */
export function encodeCall(name: CallName, request: object = {}): EncodedCall {
  const spec = API_CALLS[name];
  const fields: Record<string, unknown> = { ...request };
  let path: string = spec.path.replace(/:(\w+)/g, (_match, key: string) => {
    const value = encodeURIComponent(text(fields[key]));
    delete fields[key];
    return value;
  });
  const entries = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, text(v)] as [string, string]);

  let body: URLSearchParams | FormData | undefined;
  if (spec.encoding === 'query' && entries.length > 0) path += `?${new URLSearchParams(entries).toString()}`;
  if (spec.encoding === 'form') body = new URLSearchParams(entries);
  if (spec.encoding === 'multipart') {
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v);
    body = form;
  }
  return { method: spec.method, path, body, credentials: spec.credentials };
}
