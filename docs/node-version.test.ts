import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// One Node release for the whole platform: what the scripts run on, what the images are built
// from, and what the README tells a reader to expect.
const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const launcher = /export const NODE_VERSION = '(\d+\.\d+\.\d+)'/.exec(read('scripts/with-node.mjs'))?.[1];

describe("the platform's Node release", () => {
  it('is named once by the launcher that npm start and npm test run through', () => {
    expect(launcher).toMatch(/^24\.\d+\.\d+$/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'start:single', 'start:prod', 'test', 'bench'])
      expect(scripts[name], name).toMatch(/^node scripts\/with-node\.mjs /);
  });

  it('is the one every Dockerfile builds from', () => {
    for (const file of ['api/Dockerfile', 'page-server/Dockerfile']) {
      const images = [...read(file).matchAll(/^FROM node:(\S+)/gm)].map((m) => m[1]);
      expect(images.length, file).toBeGreaterThan(0);
      for (const image of images) expect(image, file).toMatch(new RegExp(`^${launcher}-`));
    }
  });

  it('is the one the README names and package.json requires', () => {
    expect(read('README.md')).toContain(`**Node ${launcher}**`);
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${launcher?.split('.').slice(0, 2).join('.')}`);
  });
});
