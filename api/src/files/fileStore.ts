import type { PresignedPost } from './presigned.js';

export interface OpenedFile {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * Where uploads and media live. Keys are relative paths ('events/x/photo-001.png'), the same in
 * both backends and the same as the API's /media and /download paths. Keys from clients are
 * checked with `check` before use.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Why this key may not be used, or null when it may. */
  check(key: string): string | null;
  /** Makes the store ready (the bucket and its CORS rules); safe when several instances start at once. */
  prepare(allowedOrigins: readonly string[]): Promise<void>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Stores the file at `path` on this machine under `key` (streamed: an upload may be hundreds of MB). */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** The file's size, or undefined when there is no file under the key. */
  size(key: string): Promise<number | undefined>;
  /** The file's first `length` bytes (all of it when shorter): enough to tell its type. */
  leading(key: string, length: number): Promise<Uint8Array>;
  /** The file as a stream, or undefined when there is none. */
  open(key: string): Promise<OpenedFile | undefined>;
  /**
   * Where the browser sends a new file directly, usable for this key, this type and 1 to
   * `maxBytes` bytes only (a presigned POST: url and form fields), or null when the file is sent
   * to the API.
   */
  presignUpload(key: string, contentType: string, maxBytes: number): Promise<PresignedPost | null>;
  /** A short-lived URL the browser downloads from directly, or null when the API streams the file. */
  presignDownload(key: string, contentType: string, contentDisposition: string): Promise<string | null>;
  /** Copies a file to another key (the store's own copy: the bytes do not pass through the API). */
  copy(from: string, to: string): Promise<void>;
  /** Removes the file; no error when there is none. */
  remove(key: string): Promise<void>;
  /** The keys of every file under `prefix` ('quarantine/'), in the store's order. */
  keysUnder(prefix: string): Promise<string[]>;
}
