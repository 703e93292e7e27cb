import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import webpack from 'webpack';
import { APPS, SINGLE_BUNDLE_PORT } from '@marketplace/shared/node/platform';
import { baseConfig } from './index.mjs';
import { SINGLETONS } from './shared-deps.mjs';

/**
 * The single-bundle build: the shell and the four remotes' code compiled into one application
 * with static imports (no federation runtime), for deployments without independent teams and as
 * the benchmark's baseline. Same routes and the same lazy splitting: every exposed module is
 * still its own chunk, loaded when its route or slot needs it.
 *
 * @param {string} root the repository's root folder
 */
export function singleBundleApp(root) {
  const shellDir = join(root, 'shell');
  const requireFromShell = createRequire(join(shellDir, 'package.json'));
  /** @type {Record<string, string>} */
  const aliases = {};
  for (const [pkg, { federationName }] of Object.entries(APPS)) {
    if (pkg !== 'shell') aliases[`@exposes/${federationName}`] = join(root, pkg, 'src', 'exposes');
  }
  // One copy of each singleton, the shell's, whichever package's code imports it.
  for (const name of SINGLETONS) {
    try {
      aliases[`${name}$`] = requireFromShell.resolve(name);
    } catch {
      // Not a dependency of the shell (or no main entry): resolved normally.
    }
  }

  /**
   * @param {unknown} _env
   * @param {{ mode?: string }} argv
   * @returns {import('webpack').Configuration & { devServer: import('webpack-dev-server').Configuration }}
   */
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const base = baseConfig({
      dir: shellDir,
      production,
      outputPath: join(shellDir, 'dist-single'),
      uniqueName: 'single',
      title: 'Event media marketplace',
    });
    return {
      ...base,
      output: { ...base.output, publicPath: '/' },
      resolve: { ...base.resolve, alias: aliases },
      plugins: [
        // The shell's federation loader becomes static imports of the remotes' exposed modules.
        new webpack.NormalModuleReplacementPlugin(/(^|[\\/])federation\.js$/, (resource) => {
          if (resource.context.startsWith(join(shellDir, 'src')))
            resource.request = resolve(shellDir, 'src', 'remotes', 'single.ts');
        }),
        ...(base.plugins ?? []),
      ],
      devServer: { port: SINGLE_BUNDLE_PORT, host: 'localhost', historyApiFallback: true, hot: false },
    };
  };
}
