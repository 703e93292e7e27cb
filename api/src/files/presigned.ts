import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

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

/**
 * A presigned POST (S3's browser upload, Signature Version 4) whose policy fixes the key, the
 * exact Content-Type and a size of 1 byte to `maxBytes`, valid for uploadSecondsFor(type). The
 * store refuses a POST the policy does not allow, so the URL cannot write another key or type,
 * nor an empty or oversized file; what the API reads is checked again all the same. The key
 * and type are also `eq` conditions of their own: the library would make a key ending in
 * `${filename}` a prefix. `signer` is a client for the host browsers reach the store at.
 */
export const presignUpload = (
  signer: S3Client,
  Bucket: string,
  key: string,
  contentType: string,
  maxBytes: number,
): Promise<PresignedPost> =>
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
  });

/** A short-lived URL the browser downloads the file from, answered with this type and disposition. */
export const presignDownload = (
  signer: S3Client,
  Bucket: string,
  key: string,
  contentType: string,
  contentDisposition: string,
): Promise<string> =>
  getSignedUrl(
    signer,
    new GetObjectCommand({
      Bucket,
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: contentDisposition,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
