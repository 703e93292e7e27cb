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
import { resolveMediaPath } from './paths.js';
import type { FileStore } from './fileStore.js';

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
