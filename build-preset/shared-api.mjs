// Which `@marketplace/shared` exports a build uses, and which the shell's copy offers, written
// into each build (shared-imports.json, shared-exports.json) for the release gate: the page runs
// every remote on the shell's copy (a singleton), so a remote needing an export that copy lacks
// would break at run time (the README's "Deploying one remote" records it happening).
const NAME = 'SharedApiPlugin';
export const SHARED_PACKAGE = '@marketplace/shared';
export const SHARED_IMPORTS_FILE = 'shared-imports.json';
export const SHARED_EXPORTS_FILE = 'shared-exports.json';

export class SharedApiPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    /** @type {Set<string>} */
    const imported = new Set();
    compiler.hooks.thisCompilation.tap(NAME, (compilation, { normalModuleFactory }) => {
      imported.clear();
      for (const type of ['javascript/auto', 'javascript/esm', 'javascript/dynamic']) {
        normalModuleFactory.hooks.parser.for(type).tap(NAME, (/** @type {any} */ parser) => {
          parser.hooks.importSpecifier.tap(
            NAME,
            (
              /** @type {unknown} */ _statement,
              /** @type {string} */ source,
              /** @type {string | null} */ exportName,
            ) => {
              if (source === SHARED_PACKAGE && exportName) imported.add(exportName);
            },
          );
        });
      }
      /** @type {string[] | null} */
      let offered = null;
      // The package's entry module in this build: what its copy offers, as webpack resolved it.
      // Read after exports are known and before scope hoisting merges the module into another.
      compilation.hooks.afterOptimizeModules.tap(NAME, (modules) => {
        for (const module of modules) {
          const resource = /** @type {{ resource?: string }} */ (module).resource ?? '';
          if (!/[\\/]shared[\\/]src[\\/]index\.ts$/.test(resource)) continue;
          const provided = compilation.moduleGraph.getProvidedExports(module);
          if (Array.isArray(provided)) offered = [...provided].sort();
          break;
        }
      });
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const json = (/** @type {unknown} */ value) => new sources.RawSource(`${JSON.stringify(value, null, 2)}\n`);
        compilation.emitAsset(SHARED_IMPORTS_FILE, json({ [SHARED_PACKAGE]: [...imported].sort() }));
        if (offered) compilation.emitAsset(SHARED_EXPORTS_FILE, json({ [SHARED_PACKAGE]: offered }));
      });
    });
  }
}
