import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { contentTypeOf } from './paths.js';
import type { FileStore } from './fileStore.js';

/**
 * Copies every file under `folder` into the store under its relative path (the same key the
 * local store gives it), keeping what the store already has: moving a deployment's files from
 * its folder to an object store, once or again after a partial run.
 */
export async function importFolder(
  files: FileStore,
  folder: string,
): Promise<{ copied: number; kept: number; refused: string[] }> {
  const result = { copied: 0, kept: 0, refused: [] as string[] };
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const key = relative(folder, path).split(sep).join('/');
    if (files.check(key)) {
      result.refused.push(key);
    } else if ((await files.size(key)) !== undefined) {
      result.kept++;
    } else {
      await files.put(key, readFileSync(path), contentTypeOf(key));
      result.copied++;
    }
  }
  return result;
}
