import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { sharedConfig } from './shared-deps.mjs';

const require = createRequire(import.meta.url);

/** Where a remote's server build goes, inside its browser build's folder (so a release stores both). */
export const SERVER_DIR = 'server';

/**
 * Lists the server build's entry in the browser build's mf-manifest.json, as
 * `metaData.ssrRemoteEntry` (the field Module Federation's SSR tooling reads), relative to the
 * manifest: a page's server finds the server build of exactly the version the page names. Without
 * `ssrPublicPath`, the runtime resolves it against the manifest's own URL.
 */
class ServerEntryInManifestPlugin {
  /** @param {string} browserDir */
  constructor(browserDir) {
    this.browserDir = browserDir;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tap('ServerEntryInManifestPlugin', () => {
      const server = JSON.parse(readFileSync(join(compiler.options.output.path ?? '', 'mf-manifest.json'), 'utf8'));
      const file = join(this.browserDir, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.ssrRemoteEntry = { ...server.metaData.remoteEntry, path: SERVER_DIR };
      writeFileSync(file, JSON.stringify(manifest, null, 2));
    });
  }
}

/**
 * The server build of a remote: the same exposes for Node (`async-node`, CommonJS chunks read from
 * its own folder), into `<browser build>/server/`, compiled after the browser build (which empties
 * the folder and writes the manifest this build adds its entry to).
 *
 * Every singleton is `import: false`: the server build never carries its own React, store or
 * shared package; the page's server provides the one copy each (a second React on the server
 * breaks hooks). The Node runtime plugin lets the entry load its chunks from disk or over HTTP.
 *
 * @param {{ base: import('webpack').Configuration, federationName: string, exposes: Record<string, string> }} options
 *   `base`: the browser build's configuration (loaders, resolution, mode)
 * @returns {import('webpack').Configuration}
 */
export function serverConfig({ base, federationName, exposes }) {
  const browserDir = base.output?.path ?? '';
  const shared = Object.fromEntries(
    Object.entries(sharedConfig()).map(([name, config]) => [name, { ...config, import: /** @type {false} */ (false) }]),
  );
  return {
    name: 'server',
    dependencies: ['browser'],
    mode: base.mode,
    context: base.context,
    target: 'async-node',
    devtool: 'source-map',
    // Only the federation container.
    entry: {},
    output: {
      path: join(browserDir, SERVER_DIR),
      publicPath: 'auto',
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: `${federationName}_server`,
      chunkFormat: 'commonjs',
      chunkLoading: 'async-node',
      clean: true,
    },
    resolve: base.resolve,
    module: base.module,
    optimization: { chunkIds: 'named', minimizer: base.optimization?.minimizer },
    performance: { hints: false },
    plugins: [
      new ModuleFederationPlugin({
        name: federationName,
        filename: 'remoteEntry.js',
        exposes,
        shared,
        library: { type: 'commonjs-module', name: federationName },
        remoteType: 'script',
        runtimePlugins: [require.resolve('@module-federation/node/runtimePlugin')],
        shareStrategy: 'loaded-first',
        manifest: { fileName: 'mf-manifest.json' },
        dts: false,
        experiments: { optimization: { target: 'node' } },
      }),
      new ServerEntryInManifestPlugin(browserDir),
    ],
  };
}
