import { createReadStream, statSync } from 'node:fs';
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
import type { FilesS3Config } from '../config.js';
import { checkKey } from './paths.js';
import { presignDownload, presignUpload } from './presigned.js';
import type { FileStore } from './fileStore.js';

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
    presignUpload: (key, contentType, maxBytes) => presignUpload(signer, Bucket, key, contentType, maxBytes),
    presignDownload: (key, contentType, contentDisposition) =>
      presignDownload(signer, Bucket, key, contentType, contentDisposition),
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
