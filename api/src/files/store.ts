import type { FilesS3Config } from '../config.js';
import { localFileStore } from './localStore.js';
import type { FileStore } from './fileStore.js';
import { s3FileStore } from './s3Store.js';

/** The store this deployment configures: an S3-compatible object store when given one, else the local folder. */
export function createFileStore(config: { mediaDir: string; filesS3: FilesS3Config | null }): FileStore {
  return config.filesS3 ? s3FileStore(config.filesS3) : localFileStore(config.mediaDir);
}
