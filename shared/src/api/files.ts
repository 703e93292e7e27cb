import { FILES_PATHS, type DownloadQuery } from '../contract/calls.js';
import { getRuntimeConfig } from '../config/runtime.js';

/** A link to the files host's download (SPEC.md section 7 "Download": /download?filePath&fileName). */
export function downloadUrl({ filePath, fileName }: DownloadQuery): string {
  const query = new URLSearchParams({ filePath, fileName });
  return `${getRuntimeConfig().filesOrigin}${FILES_PATHS.download}?${query}`;
}
