// The release gate's checks that read the builds: a candidate remote must find every shared
// singleton it needs in the live shell at a version it accepts, use only the `@marketplace/shared`
// exports the shell's copy offers, and expose every module the platform table says it owns. Each check answers the reasons
// it refuses, empty when it passes.
import { PLATFORM } from '@marketplace/shared/node/platform';
import { SHARED_EXPORTS_FILE, SHARED_IMPORTS_FILE, SHARED_PACKAGE } from 'build-preset/shared-api';

/** @param {string} v @returns {[number, number, number] | null} */
const parse = (v) => {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
};
/** @param {[number, number, number]} a @param {[number, number, number]} b */
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` satisfies `range`, for the ranges builds write: `^x.y.z` (npm's caret: the
 * left-most non-zero part fixed), `~x.y.z`, `>=x.y.z`, an exact version, `*` or none.
 *
 * @param {string} version
 * @param {string | undefined} range
 */
export function satisfies(version, range) {
  const have = parse(version);
  if (!range || range === '*' || range === 'latest') return true;
  if (!have) return false;
  const op = /^(\^|~|>=)?\s*(.*)$/.exec(range.trim());
  const want = parse(op?.[2] ?? '');
  if (!want) return false;
  if (compare(have, want) < 0) return false;
  switch (op?.[1]) {
    case '>=':
      return true;
    case '~':
      return have[0] === want[0] && have[1] === want[1];
    case '^':
      if (want[0] > 0) return have[0] === want[0];
      if (want[1] > 0) return have[0] === 0 && have[1] === want[1];
      return have[0] === 0 && have[1] === 0 && have[2] === want[2];
    default:
      return compare(have, want) === 0;
  }
}

/**
 * @typedef {{ name: string, version?: string, requiredVersion?: string, singleton?: boolean }} SharedEntry
 * @typedef {{ shared?: SharedEntry[], exposes?: { name: string }[] }} Manifest
 */

/**
 * A singleton the candidate needs that the live shell does not provide, or provides at a version
 * outside the candidate's range: the page has one copy, the shell's, so the remote would run on it.
 *
 * @param {Manifest} candidate
 * @param {Manifest} shell
 */
export function singletonProblems(candidate, shell) {
  const provided = new Map((shell.shared ?? []).map((s) => [s.name, s.version ?? '']));
  return (candidate.shared ?? [])
    .filter((s) => s.singleton)
    .flatMap((s) => {
      const version = provided.get(s.name);
      if (version === undefined)
        return [
          `needs the singleton ${s.name} ${s.requiredVersion ?? ''}, which the live shell does not provide`.trim(),
        ];
      return satisfies(version, s.requiredVersion)
        ? []
        : [`needs ${s.name} ${s.requiredVersion}, the live shell provides ${version}`];
    });
}

/**
 * A page module the platform table says this remote renders, missing from the candidate's exposes.
 *
 * @param {Manifest} candidate
 * @param {string} remote
 */
export function exposeProblems(candidate, remote) {
  const exposed = new Set((candidate.exposes ?? []).map((e) => e.name.replace(/^\.\//, '')));
  const owned = [...new Set(PLATFORM.pages.filter((p) => p.remote === remote).map((p) => p.module))];
  return owned
    .filter((module) => !exposed.has(module))
    .map((module) => `does not expose ${module}, which the platform table's pages need from ${remote}`);
}

/**
 * `@marketplace/shared` exports the candidate uses that the live shell's copy does not offer
 * (each build lists both: shared-api.mjs). Every remote runs on the shell's copy.
 *
 * @param {Record<string, string[]> | null} candidateImports the candidate's shared-imports.json
 * @param {Record<string, string[]> | null} shellExports the live shell's shared-exports.json
 */
export function sharedExportProblems(candidateImports, shellExports) {
  if (!candidateImports)
    return [
      `does not list the ${SHARED_PACKAGE} exports it uses (${SHARED_IMPORTS_FILE}): build it with the platform's preset`,
    ];
  if (!shellExports)
    return [
      `the live shell does not list its ${SHARED_PACKAGE} exports (${SHARED_EXPORTS_FILE}): rebuild and deploy the shell with the platform's preset first`,
    ];
  const offered = new Set(shellExports[SHARED_PACKAGE] ?? []);
  return (candidateImports[SHARED_PACKAGE] ?? [])
    .filter((name) => !offered.has(name))
    .map(
      (name) =>
        `uses ${name} from ${SHARED_PACKAGE}, which the live shell's copy lacks: deploy the shell with it first`,
    );
}
