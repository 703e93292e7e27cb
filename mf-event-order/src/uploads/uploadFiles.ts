import { ApiError, apiCall, IMAGE_COMPRESSION_LIMIT_MB, sendUpload } from '@marketplace/shared';

export type Compress = (file: File, options: { maxSizeMB: number }) => Promise<Blob>;

/** A file not sent, with why in words for the person who chose it. */
class Refused extends Error {}

/**
 * browser-image-compression, fetched only when an upload starts (never on a page that only views).
 * On the main thread: its web worker would load the library again from a CDN, which a closed
 * network or a strict Content-Security-Policy refuses.
 */
const compressInBrowser: Compress = async (file, options) => {
  const { default: imageCompression } = await import('browser-image-compression').catch(() => {
    throw new Refused('The page could not load what prepares images: try again');
  });
  return imageCompression(file, { ...options, useWebWorker: false });
};

/** The videos an order takes (the API's list): sent as they are, not compressed. */
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
/** What the file picker offers. */
export const UPLOAD_ACCEPT = ['image/*', ...VIDEO_TYPES].join(',');

const isVideo = (file: File) => (VIDEO_TYPES as readonly string[]).includes(file.type);

/** Where one file is: waiting its turn, being compressed, being sent (bytes of the request), sent, or refused and why. */
export type FileUpload =
  | { state: 'waiting' }
  | { state: 'preparing' }
  | { state: 'sending'; loaded: number; total: number }
  | { state: 'sent'; targetId: number }
  | { state: 'refused'; reason: string };

/** Why a file is not even sent, or null. */
function refusalOf(file: File): string | null {
  if (file.type.startsWith('video/') && !isVideo(file)) return 'Not a video this order takes (MP4, MOV or WebM)';
  if (!file.type.startsWith('image/') && !isVideo(file)) return 'Not an image or a video';
  if (file.size === 0) return 'The file is empty';
  return null;
}

const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;

/**
 * A failed file's reason in plain words. The size limits are the API's settings (UPLOAD_MAX_BYTES,
 * VIDEO_UPLOAD_MAX_BYTES), which the browser is not told: its 413 says the limit.
 */
function reasonOf(error: unknown): string {
  if (error instanceof Refused) return error.message;
  if (!(error instanceof ApiError)) return 'Could not be sent: try again';
  if (error.status === 413) {
    const limit = /larger than (\d+) bytes/.exec(error.message)?.[1];
    return limit ? `Too large: at most ${megabytes(Number(limit))}` : 'Too large to upload';
  }
  if (error.status === 0) return 'The connection was lost: try again';
  if (error.status >= 500) return 'The server could not take it: try again later';
  // A 4xx: the API's reason, less the field it names (the page sent it, not the person).
  const reason = error.message.replace(/^Invalid field '[^']*': /, '');
  return /^HTTP \d+$/.test(reason) ? 'Not accepted' : reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * Uploads images and videos one at a time (SPEC.md section 7): each image is compressed to at
 * most 1 MB (a video is sent as it is: the server transcodes it), then `target/add` returns
 * where to send it (a PUT, or an object store's presigned POST) and it is sent, its progress
 * reported. A file refused (its type, at once; an image that cannot be read; the API's reason)
 * is reported with why, and the others still go. Returns how many were sent.
 */
export async function uploadFiles(
  orderId: string,
  files: readonly File[],
  onChange: (index: number, upload: FileUpload) => void,
  compress: Compress = compressInBrowser,
): Promise<number> {
  const refusals = files.map(refusalOf);
  refusals.forEach((reason, i) => onChange(i, reason ? { state: 'refused', reason } : { state: 'waiting' }));
  let sent = 0;
  for (const [i, file] of files.entries()) {
    if (refusals[i]) continue;
    try {
      let body: Blob = file;
      if (!isVideo(file)) {
        onChange(i, { state: 'preparing' });
        body = await compress(file, { maxSizeMB: IMAGE_COMPRESSION_LIMIT_MB }).catch((error: unknown) => {
          throw error instanceof Refused ? error : new Refused('Not a readable image');
        });
      }
      const contentType = body.type || file.type;
      const { targetId, ...upload } = await apiCall('addTarget', {
        orderId,
        description: '',
        fileName: file.name,
        contentType,
      });
      onChange(i, { state: 'sending', loaded: 0, total: body.size });
      await sendUpload(upload, body, contentType, {
        onProgress: (loaded, total) => onChange(i, { state: 'sending', loaded, total }),
      });
      onChange(i, { state: 'sent', targetId });
      sent++;
    } catch (error) {
      onChange(i, { state: 'refused', reason: reasonOf(error) });
    }
  }
  return sent;
}
