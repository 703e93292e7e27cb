// The shell's boot script (src/boot/index.ts in the host's folder), bundled by webpack into one
// minified script and written into the page inline, where the page's template marks its place.
// The page's policy allows it by the hash of these exact bytes, which page-server/csp.mjs reads
// from the built page: no comment and no source map ship with it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import webpack from 'webpack';
import { BOOT_SCRIPT_MARKER } from 'page-server/page-composition';

const require = createRequire(import.meta.url);

/** The boot script's entry in an app's folder: only the host (the shell) has one. */
export const bootEntryOf = (/** @type {string} */ dir) => join(dir, 'src', 'boot', 'index.ts');

/**
 * The webpack config of the boot script: one chunk, no runtime beyond the module wrapper webpack
 * concatenates away, the browser's own syntax (as main.js's), minified without comments.
 * @param {string} dir @param {string} outputPath
 * @returns {import('webpack').Configuration}
 */
export function bootScriptConfig(dir, outputPath) {
  return {
    name: 'boot-script',
    mode: 'production',
    context: dir,
    entry: bootEntryOf(dir),
    target: 'web',
    devtool: false,
    output: { path: outputPath, filename: 'boot-script.js', iife: true },
    resolve: { extensions: ['.ts', '.mjs', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]s$/,
          exclude: /node_modules/,
          use: {
            loader: require.resolve('swc-loader'),
            options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
          },
        },
      ],
    },
    optimization: {
      minimizer: [
        new TerserPlugin({
          minify: TerserPlugin.swcMinify,
          extractComments: false,
          terserOptions: { format: { comments: false } },
        }),
      ],
    },
    performance: { hints: false },
  };
}

/**
 * Builds the boot script of the app in `dir`: its text and the files it was built from.
 * @param {string} dir
 * @returns {Promise<{ text: string, files: string[] }>}
 */
export function buildBootScript(dir) {
  const outputPath = mkdtempSync(join(tmpdir(), 'boot-script-'));
  return new Promise((resolve, reject) => {
    webpack(bootScriptConfig(dir, outputPath), (error, stats) => {
      try {
        if (error) throw error;
        if (!stats || stats.hasErrors()) throw new Error(`boot script: ${stats?.toString('errors-only')}`);
        const text = readFileSync(join(outputPath, 'boot-script.js'), 'utf8').trim();
        // Inline, its text must not end the element it sits in.
        if (/<\/script/i.test(text)) throw new Error('boot script: its text contains </script');
        resolve({ text, files: [...stats.compilation.fileDependencies] });
      } catch (failure) {
        reject(failure);
      } finally {
        rmSync(outputPath, { recursive: true, force: true });
      }
    });
  });
}

/**
 * Writes the boot script into the app's page where its template marks it. Built before the first
 * compilation and again when one of its files changed (a development server's rebuilds); a build
 * that fails is the compilation's error, the page keeping the last script that built, and its
 * folder stays watched so that the fix rebuilds it.
 */
export class BootScriptPlugin {
  /** @param {string} dir */
  constructor(dir) {
    this.dir = dir;
    this.folder = dirname(bootEntryOf(dir));
    /** @type {{ text: string, files: string[] } | null} */
    this.built = null;
    /** @type {Error | null} */
    this.failure = null;
  }

  /** Whether a rebuild of the app touched the boot script's sources. @param {ReadonlySet<string> | undefined} changed */
  stale(changed) {
    if (!this.built || this.failure || !changed) return true;
    const files = new Set(this.built.files);
    return [...changed].some((file) => files.has(file) || file.startsWith(this.folder));
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.beforeCompile.tapPromise('BootScriptPlugin', async () => {
      if (!this.stale(compiler.modifiedFiles)) return;
      try {
        this.built = await buildBootScript(this.dir);
        this.failure = null;
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
      }
    });
    compiler.hooks.thisCompilation.tap('BootScriptPlugin', (compilation) => {
      compilation.contextDependencies.add(this.folder);
      for (const file of this.built?.files ?? []) if (existsSync(file)) compilation.fileDependencies.add(file);
      if (this.failure) compilation.errors.push(new compiler.webpack.WebpackError(this.failure.message));
      HtmlWebpackPlugin.getHooks(compilation).beforeEmit.tap('BootScriptPlugin', (data) => {
        if (!data.html.includes(BOOT_SCRIPT_MARKER))
          throw new Error(`boot script: the page has no ${BOOT_SCRIPT_MARKER}`);
        const text = this.built?.text;
        data.html = data.html.replace(BOOT_SCRIPT_MARKER, () => (text ? `<script>${text}</script>` : ''));
        return data;
      });
    });
  }
}
