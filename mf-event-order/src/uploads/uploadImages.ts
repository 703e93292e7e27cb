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

/**
 * Uploads images one at a time (SPEC.md section 7): each is compressed to at most 1 MB, then
 * `target/add` returns where to send it (a PUT, or an object store's presigned POST) and it is sent. A file that is not an image is
 * not uploaded. The first failure stops the loop silently (SPEC.md section 8); files already
 * uploaded stay. Returns how many were uploaded.
 */
export async function uploadImages(
  orderId: string,
  files: readonly File[],
  onProgress: (uploaded: number, total: number) => void,
  compress: Compress = compressInBrowser,
): Promise<number> {
  const images = files.filter((f) => f.type.startsWith('image/'));
  let uploaded = 0;
  onProgress(uploaded, images.length);
  for (const file of images) {
    try {
      const compressed = await compress(file, { maxSizeMB: IMAGE_COMPRESSION_LIMIT_MB });
      const contentType = compressed.type || file.type;
      const upload = await apiCall('addTarget', { orderId, description: '', fileName: file.name, contentType });
      await sendUpload(upload, compressed, contentType);
    } catch (error) {
      // Silent for the user (SPEC.md section 8); the console says why for whoever looks.
      console.warn(`[uploads] stopped at ${file.name}:`, error);
      break;
    }
    uploaded++;
    onProgress(uploaded, images.length);
  }
  return uploaded;
}
