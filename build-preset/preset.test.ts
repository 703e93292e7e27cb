import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { describe, expect, it } from 'vitest';
import { exposesOf, federatedApp } from './index.mjs';

type Plugin = { constructor: { name: string } };
type FederationOptions = {
  name: string;
  filename?: string;
  exposes?: Record<string, string>;
  shared: Record<string, { singleton: boolean; version?: string }>;
  experiments?: { optimization?: { disableRemote?: boolean } };
};

/** An app's folder as the preset reads it: its package.json and the files in src/exposes. */
function appFolder(packageName: string, exposed: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'preset-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: packageName }));
  mkdirSync(join(dir, 'src', 'exposes'), { recursive: true });
  for (const file of exposed) writeFileSync(join(dir, 'src', 'exposes', file), 'export default () => null;\n');
  return dir;
}

function federation(dir: string, mode: 'production' | 'development' = 'production') {
  const config = federatedApp(dir)({}, { mode });
  const plugin = (config.plugins as Plugin[]).find(
    (p) => p.constructor.name === 'ModuleFederationPlugin',
  ) as unknown as { _options: FederationOptions };
  return { config, options: plugin._options };
}

describe('the build preset', () => {
  it("exposes every component in a remote's src/exposes as ./Name, its tests left out", () => {
    const dir = appFolder(PLATFORM.remotes.header?.package ?? '', [
      'Header.tsx',
      'Zeta.tsx',
      'Header.test.tsx',
      'notes.md',
    ]);
    expect(exposesOf(dir)).toEqual({ './Header': './src/exposes/Header.tsx', './Zeta': './src/exposes/Zeta.tsx' });
    const { options, config } = federation(dir);
    expect(options.name).toBe('header');
    expect(options.filename).toBe('remoteEntry.js');
    expect(config.devServer.port).toBe(PLATFORM.remotes.header?.devPort);
    // No remote consumes another: its entry leaves out the code that loads remotes.
    expect(options.experiments?.optimization?.disableRemote).toBe(true);
  });

  it('shares one copy of each singleton in every app, the shared package at its own version', () => {
    for (const dir of [
      appFolder(PLATFORM.shell.package, []),
      appFolder(PLATFORM.remotes.media?.package ?? '', ['Viewer.tsx']),
    ]) {
      const { shared } = federation(dir).options;
      for (const name of [
        'react',
        'react-dom',
        'react-dom/client',
        'zustand',
        'styled-components',
        '@tanstack/react-query',
        '@marketplace/shared',
      ]) {
        expect(shared[name]?.singleton, name).toBe(true);
      }
      expect(shared['@marketplace/shared']?.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('makes the shell a host with no remote entry, and refuses an app missing from the platform table', () => {
    const { options } = federation(appFolder(PLATFORM.shell.package, []));
    expect(options.filename).toBeUndefined();
    expect(options.exposes).toBeUndefined();
    expect(options.experiments?.optimization?.disableRemote).toBeUndefined();
    expect(() => federatedApp(appFolder('mf-nowhere', ['X.tsx']))).toThrow(/platform table/);
  });
});
