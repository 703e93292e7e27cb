import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack from 'webpack';
import { sharedConfig, SINGLETONS } from './shared-deps.mjs';

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
    compiler.hooks.afterEmit.tap('ServerEntryInManifestPlugin', (compilation) => {
      const server = JSON.parse(readFileSync(join(compiler.options.output.path ?? '', 'mf-manifest.json'), 'utf8'));
      const file = join(this.browserDir, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.ssrRemoteEntry = { ...server.metaData.remoteEntry, path: SERVER_DIR };
      // Every file of the server build, relative to its folder: a page's server on another
      // machine copies them all before it runs the entry (its chunks are read from beside it).
      manifest.metaData.ssrFiles = compilation
        .getAssets()
        .map((asset) => asset.name)
        .filter((name) => name.endsWith('.js'))
        .sort();
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

/** Where the host's server build goes: beside its browser build, not in it (dist/ is served to browsers). */
export const HOST_SERVER_DIR = 'dist-server';

/**
 * The host's server build: the shell's `src/server.tsx` for Node, one CommonJS file (`render.cjs`) that its
 * page server requires (page-server/render-page.ts). It bundles the one copy of every shared
 * singleton the page's server has, and hands them to the remotes' server builds; their versions
 * are the installed packages'.
 *
 * @param {{ base: import('webpack').Configuration }} options `base`: the browser build's configuration
 * @returns {import('webpack').Configuration}
 */
export function hostServerConfig({ base }) {
  const context = base.context ?? '.';
  const fromApp = createRequire(join(context, 'package.json'));
  const versionOf = (/** @type {string} */ name) => {
    const pkg = name.startsWith('react/') ? 'react' : name.startsWith('react-dom/') ? 'react-dom' : name;
    try {
      return fromApp(`${pkg}/package.json`).version;
    } catch {
      // A package whose exports hide its package.json: its entry's folder holds it.
      let dir = dirname(fromApp.resolve(pkg));
      while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    }
  };
  return {
    name: 'server',
    mode: base.mode,
    context,
    target: 'node',
    // Not minified: its stack traces are readable as they are.
    devtool: false,
    entry: { render: './src/server.tsx' },
    output: {
      path: join(context, HOST_SERVER_DIR),
      // .cjs: the app's package is an ES module package.
      filename: '[name].cjs',
      library: { type: 'commonjs2' },
      clean: true,
    },
    resolve: base.resolve,
    module: base.module,
    optimization: { minimize: false },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({
        SINGLETON_VERSIONS: JSON.stringify(Object.fromEntries(SINGLETONS.map((name) => [name, versionOf(name)]))),
      }),
      // ws's optional native speed-ups (the live channel's MQTT client; never connected on the server).
      new webpack.IgnorePlugin({ resourceRegExp: /^(bufferutil|utf-8-validate)$/ }),
      // One file: the page server requires it whole.
      new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
  };
}
