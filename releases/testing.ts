import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Temporary folders for a test file, removed after each test. */
export function tempDirs(): (name: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    dirs.push(dir);
    return dir;
  };
}

/** A remote's build in a new temporary folder: a manifest, an entry and a chunk whose text says which build it is. */
export function fakeBuild(tmp: (name: string) => string, label: string): string {
  const dist = tmp('dist');
  writeFileSync(
    join(dist, 'mf-manifest.json'),
    JSON.stringify({ id: 'header', name: 'header', metaData: { buildInfo: { buildName: 'mf-header' } }, exposes: [] }),
  );
  writeFileSync(join(dist, 'remoteEntry.js'), 'var header;');
  mkdirSync(join(dist, 'static'));
  writeFileSync(join(dist, 'static', 'chunk.js'), `export const label = ${JSON.stringify(label)};`);
  return dist;
}
