import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import { appFor, PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { sharedConfig } from './shared-deps.mjs';
import { SharedApiPlugin } from './shared-api.mjs';
import { BootHintsPlugin } from './boot-hints.mjs';
import { BootScriptPlugin } from './boot-script.mjs';
import { hostServerConfig, serverConfig } from './server.mjs';
import { compositionTemplate } from 'page-server/page-composition';

// Loaders are the preset's dependencies, not the apps': resolve them from here.
const require = createRequire(import.meta.url);

export { baseConfig };

/**
 * The workspace's source packages by folder, each compiled with its own styled-components
 * namespace (the single bundle compiles them all); an app built from another folder (a copy
 * being released) adds its own.
 */
const SOURCE_NAMESPACES = new Map(
  /** @type {[string, string][]} */ ([
    [join(import.meta.dirname, '..', 'shared'), 'shared'],
    [join(import.meta.dirname, '..', PLATFORM.shell.package), PLATFORM.shell.name],
    ...Object.entries(PLATFORM.remotes).map(([name, { package: folder }]) => [
      join(import.meta.dirname, '..', folder),
      name,
    ]),
  ]),
);

/** The namespace of an app's own classes: its name in the platform table. @param {string} packageName */
const namespaceOf = (packageName) =>
  packageName === PLATFORM.shell.package
    ? PLATFORM.shell.name
    : (Object.entries(PLATFORM.remotes).find(([, app]) => app.package === packageName)?.[0] ?? packageName);

/** @type {NonNullable<import('webpack-dev-server').Configuration['setupMiddlewares']>} */
const setupMiddlewares = (middlewares, server) => {
  // In development too, the app reads its runtime config from the environment.
  server.app?.get('/runtime-config.json', (_req, res) => {
    res.json(runtimeConfigFromEnv());
  });
  return middlewares;
};

/** Files every app serves from its site root (the video preview's play icon, SPEC.md section 2). */
const SITE_DIR = join(import.meta.dirname, 'site');

/** Emits the site-root files into each app's output, so whichever app hosts the page serves them. */
class SiteAssetsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('SiteAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SiteAssetsPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const name of readdirSync(SITE_DIR)) {
            const file = join(SITE_DIR, name);
            compilation.fileDependencies.add(file);
            compilation.emitAsset(name, new RawSource(readFileSync(file)));
          }
        },
      );
    });
  }
}

/**
 * The convention: a remote exposes every component in its src/exposes folder, as `./Name`.
 * @param {string} dir the app's folder
 * @returns {Record<string, string>}
 */
export function exposesOf(dir) {
  const folder = join(dir, 'src', 'exposes');
  if (!existsSync(folder)) return {};
  return Object.fromEntries(
    readdirSync(folder)
      .filter((f) => f.endsWith('.tsx') && !f.includes('.test.'))
      .sort()
      .map((f) => [`./${basename(f, '.tsx')}`, `./src/exposes/${f}`]),
  );
}

/**
 * What every build of the platform has in common: swc for TypeScript and JSX, ESM-style
 * './x.js' imports, hashed async chunks with readable names, the page, the site-root files.
 *
 * @param {{ dir: string, production: boolean, outputPath: string, uniqueName: string, title: string, host?: boolean }} options
 * `host`: the page composes remotes (the federated shell), so its server writes their manifests into it.
 * @returns {import('webpack').Configuration}
 */
function baseConfig({ dir, production, outputPath, uniqueName, title, host = false }) {
  const namespace = namespaceOf(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name);
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: './src/index.ts' },
    // No eval in development either: a developer's build loaded into a deployed page
    // (`?version=header@local`) runs under its Content-Security-Policy, which has no 'unsafe-eval'.
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    output: {
      path: outputPath,
      // Remotes load from wherever their manifest was found.
      publicPath: 'auto',
      // Entry names stay fixed (the federation runtime cannot hash them); async chunks are hashed and immutable.
      filename: '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      uniqueName,
      // Named, not left to webpack's default (the same name): the shell empties it to load another
      // version of a remote into an open page (shell/src/remotes/federation.ts, chunkGlobalOf).
      chunkLoadingGlobal: `webpackChunk${uniqueName}`,
      // A remote's chunks run in another origin's page: fetched with CORS (every app's server
      // answers Access-Control-Allow-Origin: *), an error they throw reaches that page with its
      // stack and file, not as a bare "Script error." that no one can attribute (issue 39, item 1).
      // webpack sets it only on a chunk from another origin than the page's.
      crossOriginLoading: 'anonymous',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js'],
      // Sources import './x.js' (TypeScript's ESM convention) for './x.ts(x)'.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [...new Map([...SOURCE_NAMESPACES, [dir, namespace]])].map(([folder, namespace]) => ({
        test: /\.[cm]?[jt]sx?$/,
        include: `${folder}/`,
        exclude: /node_modules/,
        use: {
          loader: require.resolve('swc-loader'),
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              // The plain JSX runtime in development too: a developer's build loaded into a
              // deployed page (`?version=header@local`) runs on that page's production React,
              // whose internals the development runtime (jsxDEV) cannot use.
              transform: { react: { runtime: 'automatic', development: false } },
              target: 'es2022',
              // Each styled component's class is named from its file, the same in every build
              // (browser, server, single bundle) whatever order modules load in, so a page's
              // server renders the classes the browser hydrates. The namespace is the package's:
              // two packages' files with the same content must not share a class.
              experimental: {
                plugins: [
                  [require.resolve('@swc/plugin-styled-components'), { namespace, ssr: true, displayName: false }],
                ],
              },
            },
          },
        },
      })),
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: join(import.meta.dirname, 'index.html'),
        title,
        chunks: ['main'],
        composition: compositionTemplate(host),
        // The page is a template for its server's includes (page-composition.ts): keep its comments.
        minify: false,
        // Written again on every compilation: the host's boot script may have changed alone
        // (BootScriptPlugin writes it into the page as it is emitted).
        cache: !host,
        // The page is served for every client route (/user/login…): its script must not be relative.
        publicPath: '/',
      }),
      new SiteAssetsPlugin(),
      new BootHintsPlugin(),
      // The host's page starts with its boot script (src/boot), inline.
      ...(host ? [new BootScriptPlugin(dir)] : []),
    ],
    optimization: {
      // Named chunks make the network log and the byte budgets readable (react-dom is visible by name).
      chunkIds: 'named',
      minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false })],
    },
    performance: { hints: false },
  };
}

/** `@module-federation/runtime-core` and `sdk` resolved to their ES module builds. */
function runtimeAsEsm() {
  const fromEnhanced = createRequire(require.resolve('@module-federation/enhanced'));
  const fromInject = createRequire(fromEnhanced.resolve('@module-federation/inject-external-runtime-core-plugin'));
  const core = fromInject.resolve('@module-federation/runtime-core');
  const sdk = createRequire(core).resolve('@module-federation/sdk');
  return {
    '@module-federation/runtime-core$': core.replace(/\.cjs$/, '.js'),
    '@module-federation/sdk$': sdk.replace(/\.cjs$/, '.js'),
  };
}

/**
 * The webpack config of one app of the platform, from its folder: a remote exposes its
 * src/exposes components, the shell none. Everything else (federation name, port, shared
 * singletons, loaders, output naming) is decided here once, so no app copies another's config.
 *
 * @param {string} dir the app's folder (import.meta.dirname of its webpack.config.mjs)
 * @param {{ title?: string, outputPath?: string }} options `outputPath`: instead of the app's dist/ (tests)
 */
export function federatedApp(dir, { title, outputPath = join(dir, 'dist') } = {}) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const { federationName, port } = appFor(pkg.name);
  const exposes = exposesOf(dir);
  const isRemote = Object.keys(exposes).length > 0;

  /**
   * @param {unknown} _env
   * @param {{ mode?: string }} argv
   * @returns {import('webpack').Configuration & { devServer: import('webpack-dev-server').Configuration }}
   */
  const configFor = (_env, argv) => {
    const production = argv.mode !== 'development';
    const base = baseConfig({
      dir,
      production,
      outputPath,
      uniqueName: federationName,
      title: title ?? pkg.description ?? pkg.name,
      host: !isRemote,
    });
    return {
      ...base,
      name: 'browser',
      // The host's injected runtime (CommonJS) would otherwise bring a second, CommonJS copy of
      // the runtime core and SDK next to the ES module copy the bundler runtime uses.
      resolve: { ...base.resolve, alias: isRemote ? {} : runtimeAsEsm() },
      plugins: [
        new ModuleFederationPlugin({
          name: federationName,
          ...(isRemote ? { filename: 'remoteEntry.js', exposes } : {}),
          shared: sharedConfig(),
          // The default (version-first) fetches every remote at start-up, so one remote down breaks the page.
          shareStrategy: 'loaded-first',
          manifest: { fileName: 'mf-manifest.json' },
          // Type hints cannot reach remotes registered at run time.
          dts: false,
          // One federation runtime in the page: the shell provides it (global _FEDERATION_RUNTIME_CORE)
          // and remotes' production entries use it instead of each bundling a copy. A remote's
          // development build keeps its own, so it still runs alone (dev-app).
          // `target: 'web'` leaves the runtime's Node.js loading paths out of the browser build;
          // `disableRemote` a remote's code for loading remotes, since no remote consumes another
          // (the shell registers every remote at run time).
          experiments: {
            ...(isRemote ? { externalRuntime: production } : { provideExternalRuntime: true }),
            optimization: { target: 'web', ...(isRemote ? { disableRemote: true } : {}) },
          },
        }),
        // For the release gate: the shared exports this build uses, and its copy offers.
        new SharedApiPlugin(),
        ...(base.plugins ?? []),
      ],
      devServer: {
        port,
        host: 'localhost',
        historyApiFallback: true,
        hot: false,
        headers: { 'Access-Control-Allow-Origin': '*' },
        setupMiddlewares,
      },
    };
  };
  /**
   * The app's server build (build-preset/server.mjs), compiled by build-app with the browser
   * build: a remote's exposes for a page's server, the host's page renderer.
   * @param {unknown} env
   * @param {{ mode?: string }} argv
   */
  const server = (env, argv) =>
    isRemote
      ? serverConfig({ base: configFor(env, argv), federationName, exposes })
      : hostServerConfig({ base: configFor(env, argv) });
  return Object.assign(configFor, { server });
}
