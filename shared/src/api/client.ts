import {
  ABSENT_STATUS,
  API_CALLS,
  type ApiErrorBody,
  type ApiResponse,
  type CallArgs,
  type CallName,
  type CallSpec,
} from '../contract/calls.js';
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

/**
 * Sends one contract call the way the shared table says: method, path with its `:params`,
 * query, form or multipart body, credentials. The one place that knows the API origin.
 */
export async function apiCall<K extends CallName>(name: K, ...args: CallArgs<K>): Promise<ApiResponse<K>> {
  const { method, path, body, credentials } = encodeCall(name, args[0]);
  const url = `${getRuntimeConfig().apiOrigin}${path}`;

  let response: Response;
  try {
    response = await fetch(url, { method, body, credentials: credentials ? 'include' : 'omit' });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error', undefined, unloading);
  }
  const spec: CallSpec = API_CALLS[name];
  if (spec.lookup && response.status === ABSENT_STATUS) throw new ApiError(404, 'Not found');
  const payload: unknown = await response.json().catch(() => null);
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

/**
 * Sends a file to an upload URL the API handed out (`addTarget`): a PUT of the bytes with their
 * type, no cookies (the URL carries its own permission). Fails like apiCall does.
 */
export async function putUpload(uploadUrl: string, file: Blob, contentType: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(uploadUrl, {
      method: 'PUT',
      body: file,
      headers: { 'Content-Type': contentType },
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error', undefined, unloading);
  }
  if (!response.ok) {
    const reason = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
    throw new ApiError(response.status, reason?.error ?? `HTTP ${response.status}`);
  }
}
