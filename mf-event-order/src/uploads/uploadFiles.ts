import { apiCall, IMAGE_COMPRESSION_LIMIT_MB, sendUpload } from '@marketplace/shared';

export type Compress = (file: File, options: { maxSizeMB: number }) => Promise<Blob>;

/**
 * browser-image-compression, fetched only when an upload starts (never on a page that only views).
 * On the main thread: its web worker would load the library again from a CDN, which a closed
 * network or a strict Content-Security-Policy refuses.
 */
const compressInBrowser: Compress = async (file, options) => {
  const { default: imageCompression } = await import('browser-image-compression');
  return imageCompression(file, { ...options, useWebWorker: false });
};

/** The videos an order takes (the API's list): sent as they are, not compressed. */
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
/** What the file picker offers. */
export const UPLOAD_ACCEPT = ['image/*', ...VIDEO_TYPES].join(',');

const isVideo = (file: File) => (VIDEO_TYPES as readonly string[]).includes(file.type);

/**
 * Uploads images and videos one at a time (SPEC.md section 7): each image is compressed to at
 * most 1 MB (a video is sent as it is: the server transcodes it), then `target/add` returns
 * where to send it (a PUT, or an object store's presigned POST) and it is sent. Another file is
 * not uploaded. The first failure stops the loop silently (SPEC.md section 8); files already
 * uploaded stay. Returns how many were uploaded.
 */
export async function uploadFiles(
  orderId: string,
  files: readonly File[],
  onProgress: (uploaded: number, total: number) => void,
  compress: Compress = compressInBrowser,
): Promise<number> {
  const accepted = files.filter((f) => f.type.startsWith('image/') || isVideo(f));
  let uploaded = 0;
  onProgress(uploaded, accepted.length);
  for (const file of accepted) {
    try {
      const sent = isVideo(file) ? file : await compress(file, { maxSizeMB: IMAGE_COMPRESSION_LIMIT_MB });
      const contentType = sent.type || file.type;
      const upload = await apiCall('addTarget', { orderId, description: '', fileName: file.name, contentType });
      await sendUpload(upload, sent, contentType);
    } catch (error) {
      // Silent for the user (SPEC.md section 8); the console says why for whoever looks.
      console.warn(`[uploads] stopped at ${file.name}:`, error);
      break;
    }
    uploaded++;
    onProgress(uploaded, accepted.length);
  }
  return uploaded;
}
