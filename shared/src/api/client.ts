import { messageOf } from '../../node/errors.mjs';
import { type ApiErrorBody, type ApiResponse, type CallArgs, type CallName } from '../contract/calls.js';
import { encodeCall } from '../contract/encode.js';
import { getRuntimeConfig } from '../config/runtime.js';

/** An HTTP failure with its status; 0 means the request never got an answer (network, CORS). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** The page was being left: the browser cancelled the request; it says nothing about the server. */
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// Leaving the page cancels its requests, which then fail like a network error (status 0).
let unloading = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (unloading = true));
  window.addEventListener('pagehide', () => (unloading = true));
  window.addEventListener('pageshow', () => (unloading = false));
}

/** The header that makes a state-changing call act once however often it is sent (the API stores its answer a day). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Answers after which a state-changing call is sent once more, with the same key: no answer at
 * all (the request may or may not have arrived), a gateway's 502 or 504 (the instance may have
 * done the work), 503 (it did nothing), and 409 with Retry-After (the API is still running the
 * first send). The key makes the second send act only if the first did not.
 */
const RETRIED = new Set([0, 502, 503, 504]);
const RETRY_DELAY_MS = 400;

function worthRetrying(outcome: Response | ApiError): boolean {
  if (outcome instanceof ApiError) return !outcome.aborted;
  return RETRIED.has(outcome.status) || (outcome.status === 409 && outcome.headers.has('Retry-After'));
}

/** A key per user action: random, so two actions never share one (crypto.randomUUID needs a secure context). */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends one contract call the way the shared table says: method, path with its `:params`,
 * query, form or multipart body, credentials. The one place that knows the API origin. A
 * state-changing call carries an Idempotency-Key made for this action and is sent once more
 * with the same key when its first send got no usable answer (RETRIED), so a retry never acts twice.
 */
export function apiCall<K extends CallName>(name: K, ...args: CallArgs<K>): Promise<ApiResponse<K>> {
  return apiCallWith({}, name, ...args);
}

/** How a call is sent from a server, which has no browser to add cookies or give up on a request. */
export interface CallOptions {
  /** Ends the request (a page's data deadline, its own timeout): it then fails with status 0. */
  signal?: AbortSignal;
  /** The visitor's Cookie header, for a call that carries the session (the page server's render). */
  cookie?: string;
  /** Where the API is from here, when not the page's `apiOrigin` (a server's internal address). */
  apiOrigin?: string;
  /** The request outlives the page (sent as the page is left): fetch's keepalive. */
  keepalive?: boolean;
}

/** apiCall, with a signal, cookie or origin of the caller's (CallOptions). */
export async function apiCallWith<K extends CallName>(
  options: CallOptions,
  name: K,
  ...args: CallArgs<K>
): Promise<ApiResponse<K>> {
  const { method, path, body, credentials } = encodeCall(name, args[0]);
  const url = `${options.apiOrigin ?? getRuntimeConfig().apiOrigin}${path}`;
  const changes = method !== 'GET';
  const headers: Record<string, string> = changes ? { [IDEMPOTENCY_HEADER]: newIdempotencyKey() } : {};
  if (credentials && options.cookie) headers.Cookie = options.cookie;
  const { signal, keepalive } = options;
  const send = async (): Promise<Response | ApiError> => {
    try {
      return await fetch(url, {
        method,
        body,
        headers,
        signal,
        keepalive,
        credentials: credentials ? 'include' : 'omit',
      });
    } catch (error) {
      const abandoned = unloading || Boolean(signal?.aborted);
      return new ApiError(0, messageOf(error, 'Network error'), undefined, abandoned);
    }
  };

  let outcome = await send();
  if (changes && worthRetrying(outcome) && !signal?.aborted) {
    const busy = outcome instanceof Response && outcome.status === 409;
    await new Promise((resolve) => setTimeout(resolve, busy ? 1000 : RETRY_DELAY_MS));
    outcome = await send();
  }
  if (outcome instanceof ApiError) throw outcome;
  const response = outcome;
  const payload: unknown = await response.json().catch(() => null);
  // Given up while the body was arriving: no answer, whatever the status said.
  if (signal?.aborted) throw new ApiError(0, 'The request was abandoned', undefined, true);
  if (!response.ok) {
    const reason = payload as Partial<ApiErrorBody> | null;
    throw new ApiError(response.status, reason?.error ?? `HTTP ${response.status}`, reason?.field);
  }
  return payload as ApiResponse<K>;
}

/** The status of any failure: an ApiError's, or 0 for anything else. */
export function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}

/**
 * SPEC.md section 4 "Session": whether a failed call for the logged-in user's session means the
 * session is gone. A 500 says nothing about it, nor does a request the browser cancelled
 * because the page was being left; any other failure does.
 */
export function endsSession(error: unknown): boolean {
  return statusOf(error) !== 500 && !(error instanceof ApiError && error.aborted);
}

/** How an upload is sent. */
export interface UploadOptions {
  /**
   * The request body's bytes sent so far, of all (the file and, for a presigned POST, its
   * fields): the browser's upload progress. Given, the file goes by XMLHttpRequest, whose
   * `upload.onprogress` reports it (fetch has no upload progress); otherwise by fetch.
   */
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * Sends a file where the API said (`addTarget`): with `uploadFields`, a multipart POST of those
 * fields then the file (an object store's presigned POST, whose policy fixes key, type and size);
 * without, a PUT of the bytes with their type. No cookies either way (the URL or the signed policy
 * carries its own permission). Fails like apiCall does.
 */
export async function sendUpload(
  upload: { uploadUrl: string; uploadFields?: Record<string, string> },
  file: Blob,
  contentType: string,
  options: UploadOptions = {},
): Promise<void> {
  let request: { method: 'POST' | 'PUT'; body: Blob | FormData; headers: Record<string, string> };
  if (upload.uploadFields) {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.uploadFields)) form.append(name, value);
    // The store reads the fields before the file: it must come last.
    form.append('file', file);
    request = { method: 'POST', body: form, headers: {} };
  } else {
    request = { method: 'PUT', body: file, headers: { 'Content-Type': contentType } };
  }
  if (options.onProgress) return sendWithProgress(upload.uploadUrl, request, options.onProgress);
  let response: Response;
  try {
    response = await fetch(upload.uploadUrl, { ...request, credentials: 'omit' });
  } catch (error) {
    throw new ApiError(0, messageOf(error, 'Network error'), undefined, unloading);
  }
  if (!response.ok) throw uploadFailure(response.status, await response.text().catch(() => ''));
}

/** An upload's refusal, with the reason its JSON body gives (an object store's XML gives none). */
function uploadFailure(status: number, body: string): ApiError {
  let reason: Partial<ApiErrorBody> | null = null;
  try {
    reason = JSON.parse(body) as Partial<ApiErrorBody> | null;
  } catch {
    // Not JSON: the status says it.
  }
  return new ApiError(status, reason?.error ?? `HTTP ${status}`);
}

/**
 * sendUpload by XMLHttpRequest, reporting the upload's progress, and failing as the fetch does.
 * Without withCredentials no cookie goes to another origin (the upload URLs are the API's or an
 * object store's); the same origin would get the page's cookies, which fetch's 'omit' keeps back.
 */
function sendWithProgress(
  url: string,
  request: { method: string; body: Blob | FormData; headers: Record<string, string> },
  onProgress: (loaded: number, total: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(uploadFailure(xhr.status, xhr.responseText));
    xhr.onerror = () => reject(new ApiError(0, 'Network error', undefined, unloading));
    // Only the browser aborts it (the page being left): no answer, as fetch's failure then.
    xhr.onabort = () => reject(new ApiError(0, 'The request was abandoned', undefined, true));
    xhr.send(request.body);
  });
}
