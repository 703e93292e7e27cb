// Preload hints in the page for what every page loads right after main.js: the chunks of its
// bootstrap (`import('./bootstrap')` in src/index.ts) and, in a federated build, the chunks of the
// shared singletons the bootstrap consumes (followed through the shared modules that consume
// others: @marketplace/shared brings react-query…). Without them each waits for main.js to run.
import HtmlWebpackPlugin from 'html-webpack-plugin';

/** @typedef {import('webpack').Compilation} Compilation @typedef {import('webpack').Chunk} Chunk @typedef {import('webpack').Module} Module */

/** A module's own `options.shareKey` / `_name` (the federation plugin's consume and provide modules). @param {Module} module */
const shareKeyOf = (module) =>
  /** @type {{ options?: { shareKey?: string }, _name?: string }} */ (module).options?.shareKey ??
  /** @type {{ _name?: string }} */ (module)._name;

/**
 * The JavaScript files the page needs on every load after main.js, in load order.
 * @param {Compilation} compilation
 * @returns {string[]}
 */
export function bootFiles(compilation) {
  const { chunkGraph, moduleGraph } = compilation;
  const entry = compilation.entrypoints.get('main');
  // An entry module concatenated with what it imports (production's ModuleConcatenationPlugin,
  // as the shell's index.ts is) stands for its root module, which is the origin of the chunk
  // groups it opens.
  const entryModules = new Set(
    [...(compilation.entries.get('main')?.dependencies ?? [])].flatMap((dep) => {
      const module = moduleGraph.getModule(dep);
      const root = /** @type {{ rootModule?: Module }} */ (module ?? {}).rootModule;
      return root ? [module, root] : [module];
    }),
  );
  if (!entry) return [];

  /** @type {Set<Chunk>} */
  const chunks = new Set();
  // The bootstrap: the chunk groups main's own entry module opens.
  for (const group of entry.childrenIterable) {
    if (group.origins.some((origin) => origin.module && entryModules.has(origin.module)))
      for (const chunk of group.chunks) chunks.add(chunk);
  }

  // Each shared singleton's provided copy (the one a loaded-first page uses), by share key.
  /** @type {Map<string, Chunk[]>} */
  const provided = new Map();
  for (const module of compilation.modules) {
    if (module.type !== 'provide-module') continue;
    const block = module.blocks[0];
    const group = block && chunkGraph.getBlockChunkGroup(block);
    const key = shareKeyOf(module);
    if (group && key) provided.set(key, [...group.chunks]);
  }
  // Follow what the collected chunks consume, until nothing new.
  const seen = new Set();
  for (let added = true; added;) {
    added = false;
    for (const chunk of [...chunks]) {
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        const key = module.type === 'consume-shared-module' ? shareKeyOf(module) : undefined;
        if (!key || seen.has(key)) continue;
        seen.add(key);
        for (const providedChunk of provided.get(key) ?? []) {
          if (!chunks.has(providedChunk)) {
            chunks.add(providedChunk);
            added = true;
          }
        }
      }
    }
  }
  return [...chunks].flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')));
}

/** Adds `<link rel="preload" as="script">` for bootFiles to the page's head, after main.js, which it fetches first. */
export class BootHintsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap('BootHintsPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('BootHintsPlugin', (data) => {
        const base = data.publicPath;
        const hints = bootFiles(compilation).map((file) =>
          HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: `${base}${file}` }),
        );
        // main.js first: a deferred script is fetched at low priority, below the preloads it
        // would otherwise share the line with, though it is the one everything waits on.
        for (const tag of data.headTags) if (tag.tagName === 'script') tag.attributes.fetchpriority = 'high';
        data.headTags.push(...hints);
        return data;
      });
    });
  }
}
