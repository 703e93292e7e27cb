import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as styledComponents from 'styled-components';
import * as zustand from 'zustand';
import * as reactQuery from '@tanstack/react-query';
import * as shared from '@marketplace/shared';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRemotes } from 'page-server/server-remotes';
import { federatedApp } from './index.mjs';
import { SINGLETONS } from './shared-deps.mjs';

// A real remote (mf-account) built by the preset into a temporary folder: its browser build as
// always, and its server build beside it, listed in its manifest; then loaded by the page
// server's loader (page-server/server-remotes.mjs) and rendered on the server with this
// process's one copy of each singleton.
const ACCOUNT = join(import.meta.dirname, '..', 'mf-account');
let out: string;

const versionOf = (name: string) =>
  (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
/** This process's singletons, as a page's server provides them: every one the preset shares. */
const SHARED: Record<string, { version: string; lib: () => unknown }> = {
  react: { version: React.version, lib: () => React },
  'react/jsx-runtime': { version: React.version, lib: () => jsxRuntime },
  'react/jsx-dev-runtime': { version: React.version, lib: () => jsxDevRuntime },
  'react-dom': { version: ReactDOM.version, lib: () => ReactDOM },
  'react-dom/client': { version: ReactDOM.version, lib: () => ReactDOMClient },
  zustand: { version: versionOf('zustand'), lib: () => zustand },
  'styled-components': { version: versionOf('styled-components'), lib: () => styledComponents },
  '@tanstack/react-query': { version: versionOf('@tanstack/react-query'), lib: () => reactQuery },
  '@marketplace/shared': { version: versionOf('@marketplace/shared'), lib: () => shared },
};

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'server-build-'));
  const configFor = federatedApp(ACCOUNT, { outputPath: join(out, 'v1') });
  const argv = { mode: 'production' };
  const server = configFor.server?.({}, argv);
  if (!server) throw new Error('the preset made no server build for a remote');
  const stats = await new Promise<webpack.MultiStats | undefined>((resolve, reject) =>
    webpack([configFor({}, argv), server], (error, result) => (error ? reject(error) : resolve(result))),
  );
  if (!stats || stats.hasErrors()) throw new Error(stats?.toString('errors-only') ?? 'no build');
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const render = async (remotes: ReturnType<typeof serverRemotes>, versionDir: string, exposed: string) => {
  const { default: Component } = (await remotes.load(versionDir, exposed)) as { default: React.ComponentType };
  return renderToString(
    React.createElement(
      reactQuery.QueryClientProvider,
      { client: new reactQuery.QueryClient() },
      React.createElement(Component),
    ),
  );
};

describe("a remote's server build", () => {
  it('is listed in its manifest and carries no copy of a singleton', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'v1', 'mf-manifest.json'), 'utf8')) as {
      metaData: { ssrRemoteEntry?: { name: string; path: string; type: string } };
    };
    expect(manifest.metaData.ssrRemoteEntry).toEqual({
      name: 'remoteEntry.js',
      path: 'server',
      type: 'commonjs-module',
    });
    const serverManifest = JSON.parse(readFileSync(join(out, 'v1', 'server', 'mf-manifest.json'), 'utf8')) as {
      shared: { name: string; assets: { js: { sync: string[] } } }[];
    };
    // Those it uses, all singletons; import: false: none is built into it, the page's server gives its own.
    expect(serverManifest.shared.map((s) => s.name)).toEqual(expect.arrayContaining(['react', 'styled-components']));
    for (const s of serverManifest.shared) expect(SINGLETONS).toContain(s.name);
    for (const s of serverManifest.shared) expect(s.assets.js.sync, s.name).toEqual([]);
  });

  it("renders an exposed page on the server with the host's one React and styles", async () => {
    const remotes = serverRemotes({ shared: SHARED });
    const html = await render(remotes, join(out, 'v1'), 'FaqPage');
    expect(html).toMatch(/^<section class="[^"]+"><h1>Frequently asked questions<\/h1>/);
    expect(html).toContain('How do I buy photos from an event?');
  });

  it('keeps each version loaded once and drops the least recently used past its bound', async () => {
    const remotes = serverRemotes({ shared: SHARED, maxVersions: 3 });
    const versions = Array.from({ length: 8 }, (_, i) => join(out, `release-${i}`));
    for (const dir of versions) cpSync(join(out, 'v1'), dir, { recursive: true });
    for (const dir of versions) expect(await render(remotes, dir, 'FaqPage')).toContain('Frequently asked questions');
    expect(remotes.held()).toEqual(versions.slice(-3));
    // Using a version again makes it the most recent; a dropped one loads again when asked for.
    await render(remotes, versions[5] as string, 'FaqPage');
    expect(remotes.held()).toEqual([versions[6], versions[7], versions[5]]);
    expect(await render(remotes, versions[0] as string, 'FaqPage')).toContain('Frequently asked questions');
    expect(remotes.held()).toEqual([versions[7], versions[5], versions[0]]);
  });

  it('says which version has no server build', async () => {
    const remotes = serverRemotes({ shared: SHARED });
    await expect(remotes.load(join(out, 'v1', 'server'), 'FaqPage')).rejects.toThrow(/no server build/);
  });
});
