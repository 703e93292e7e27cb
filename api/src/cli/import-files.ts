/**
 * Copies a folder of files (a deployment's MEDIA_DIR) into the object store the API is configured
 * with, keeping objects already there:
 *   FILES_S3_ENDPOINT=... pnpm --filter api files:import <folder>
 * Reads the same environment as the API.
 */
import { existsSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { importFolder } from '../files/import.js';
import { createFileStore } from '../files/store.js';

const [folder] = process.argv.slice(2);
if (!folder || !existsSync(folder)) {
  console.error('usage: pnpm --filter api files:import <folder>   (the folder must exist)');
  process.exit(2);
}
// The store's settings only: no kept secret is read or made.
const config = loadConfig();
if (!config.filesS3) {
  console.error('files:import: FILES_S3_ENDPOINT is not set, so the files already live in a folder');
  process.exit(2);
}
const files = createFileStore(config);
await files.prepare(config.allowedOrigins);
const { copied, kept, refused } = await importFolder(files, folder);
console.log(`files:import: ${copied} copied, ${kept} already in the store`);
if (refused.length) {
  console.error(
    `files:import: ${refused.length} refused (not a plain relative path): ${refused.slice(0, 5).join(', ')}`,
  );
  process.exit(1);
}
