import {
  closeSync,
  copyFileSync,
  createReadStream,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FilesS3Config } from '../config.js';
import { checkKey, resolveMediaPath } from './paths.js';

/**
 * How long a presigned upload may be used: an image (at most 1 MB once compressed) with room for
 * a slow line; a video (up to 500 MB) for 2 hours, about 0.6 Mbit/s for the largest.
 */
export const UPLOAD_URL_SECONDS = 15 * 60;
export const VIDEO_UPLOAD_URL_SECONDS = 2 * 3600;
export const uploadSecondsFor = (contentType: string) =>
  contentType.startsWith('video/') ? VIDEO_UPLOAD_URL_SECONDS : UPLOAD_URL_SECONDS;
/** How long a presigned download URL may be used: the browser follows the redirect at once. */
const DOWNLOAD_URL_SECONDS = 5 * 60;

/** A browser upload straight to the store: a multipart POST to `url` of `fields`, then the file as `file`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

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

/** The default: a folder on this machine's disk (`MEDIA_DIR`), for one instance or a shared volume. */
export function localFileStore(mediaDir: string): FileStore {
  const pathOf = (key: string): string => {
    const resolved = resolveMediaPath(mediaDir, key);
    if (!resolved.ok) throw new Error(`Refused file key '${key}': ${resolved.reason}`);
    return resolved.path;
  };
  const sizeOf = (path: string): number | undefined => {
    try {
      const stat = statSync(path);
      return stat.isFile() ? stat.size : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    kind: 'local',
    check: (key) => {
      const resolved = resolveMediaPath(mediaDir, key);
      return resolved.ok ? null : resolved.reason;
    },
    prepare: async () => {
      mkdirSync(mediaDir, { recursive: true });
    },
    put: async (key, bytes) => {
      const path = pathOf(key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    },
    putFile: async (key, from) => {
      const path = pathOf(key);
      mkdirSync(dirname(path), { recursive: true });
      copyFileSync(from, path);
    },
    size: async (key) => sizeOf(pathOf(key)),
    leading: async (key, length) => {
      const fd = openSync(pathOf(key), 'r');
      try {
        const buffer = new Uint8Array(length);
        return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
      } finally {
        closeSync(fd);
      }
    },
    open: async (key) => {
      const path = pathOf(key);
      const size = sizeOf(path);
      if (size === undefined) return undefined;
      return { body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, size };
    },
    presignUpload: async () => null,
    presignDownload: async () => null,
    copy: async (from, to) => {
      const target = pathOf(to);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(pathOf(from), target);
    },
    remove: async (key) => rmSync(pathOf(key), { force: true }),
    keysUnder: async (prefix) => {
      const folder = pathOf(prefix.replace(/\/+$/, ''));
      if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
      return readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `${prefix.replace(/\/+$/, '')}/${relative(folder, join(entry.parentPath, entry.name))}`);
    },
  };
}

const statusOf = (error: unknown): number | undefined =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

/**
 * Any S3-compatible object store (AWS S3, MinIO, s3rver in the tests), through the AWS SDK v3.
 * The API reaches the store at `endpoint`; browsers at `publicEndpoint` (presigned URLs are signed
 * for the host they are sent to, so they are made by a second client that only signs).
 */
export function s3FileStore(config: FilesS3Config): FileStore {
  const base: S3ClientConfig = {
    region: config.region,
    forcePathStyle: config.pathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Checksums only where S3 requires them: stores other than AWS (MinIO, s3rver) reject or
    // ignore the newer default trailing checksums, and a browser's presigned PUT sends none.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer fails the request instead of holding it (the SDK retries twice).
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 15_000 },
  };
  const client = new S3Client({ ...base, endpoint: config.endpoint });
  const signer = new S3Client({ ...base, endpoint: config.publicEndpoint });
  const Bucket = config.bucket;

  return {
    kind: 's3',
    check: checkKey,
    async prepare(allowedOrigins) {
      try {
        await client.send(new CreateBucketCommand({ Bucket }));
      } catch (error) {
        // Another instance (or a previous start) made it.
        if (!(error instanceof S3ServiceException) || !/^BucketAlready(OwnedByYou|Exists)$/.test(error.name))
          throw error;
      }
      // Browsers POST uploads and follow download redirects from the shell's origin.
      try {
        await client.send(
          new PutBucketCorsCommand({
            Bucket,
            CORSConfiguration: {
              CORSRules: [
                {
                  AllowedOrigins: [...allowedOrigins],
                  AllowedMethods: ['POST', 'GET', 'HEAD'],
                  AllowedHeaders: ['content-type'],
                  ExposeHeaders: ['ETag'],
                  MaxAgeSeconds: 600,
                },
              ],
            },
          }),
        );
      } catch (error) {
        // MinIO has no per-bucket CORS API: its server-wide setting (MINIO_API_CORS_ALLOW_ORIGIN) applies.
        if (statusOf(error) !== 501 && !(error instanceof S3ServiceException && error.name === 'NotImplemented'))
          throw error;
      }
    },
    async put(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async putFile(key, from, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: createReadStream(from),
          ContentLength: statSync(from).size,
          ContentType: contentType,
        }),
      );
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async leading(key, length) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${length - 1}` }));
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        // An empty object has no byte 0.
        if (statusOf(error) === 416) return new Uint8Array();
        throw error;
      }
    },
    async open(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return undefined;
        return { body: object.Body.transformToWebStream(), size: object.ContentLength ?? 0 };
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    /**
     * A presigned POST (S3's browser upload, Signature Version 4) whose policy fixes the key, the
     * exact Content-Type and a size of 1 byte to `maxBytes`, valid for uploadSecondsFor(type). The
     * store refuses a POST the policy does not allow, so the URL cannot write another key or type,
     * nor an empty or oversized file; what the API reads is checked again all the same. The key
     * and type are also `eq` conditions of their own: the library would make a key ending in
     * `${filename}` a prefix.
     */
    presignUpload: (key, contentType, maxBytes) =>
      createPresignedPost(signer, {
        Bucket,
        Key: key,
        Fields: { 'Content-Type': contentType },
        Conditions: [
          ['eq', '$key', key],
          ['eq', '$Content-Type', contentType],
          ['content-length-range', 1, maxBytes],
        ],
        Expires: uploadSecondsFor(contentType),
      }),
    presignDownload: (key, contentType, contentDisposition) =>
      getSignedUrl(
        signer,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: contentType,
          ResponseContentDisposition: contentDisposition,
        }),
        { expiresIn: DOWNLOAD_URL_SECONDS },
      ),
    async copy(from, to) {
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: to,
          CopySource: `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async keysUnder(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
  };
}

export function createFileStore(config: { mediaDir: string; filesS3: FilesS3Config | null }): FileStore {
  return config.filesS3 ? s3FileStore(config.filesS3) : localFileStore(config.mediaDir);
}
