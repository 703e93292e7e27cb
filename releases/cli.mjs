#!/usr/bin/env node
// `pnpm release <remote> [--canary N | --promote]`, `pnpm rollback <remote>`, `pnpm releases`:
// the release store is RELEASES_DIR (default: releases/store/, beside this file); the live
// shell's manifest, read for the gate, is LIVE_SHELL_MANIFEST (a URL or a file; default: the
// shell's build, shell/dist/mf-manifest.json); LIVE_SHELL_URL, the shell that reads this store, is
// where the gate's smoke load opens the candidate, and without it the smoke load serves the live
// shell's build and the store on loopback (local-platform.mjs). `--skip-smoke` skips it, recorded
// in the history.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { exposeProblems, sharedExportProblems, singletonProblems } from './gate.mjs';
import { promote, readDiscovery, readHistory, release, rollback } from './store.mjs';
import { serveLocalPlatform } from './local-platform.mjs';
import { smokeLoad } from './smoke.mjs';

// The apps' builds are found in the workspace, one folder up.
const root = resolve(import.meta.dirname, '..');
const store = resolve(process.env.RELEASES_DIR ?? join(import.meta.dirname, 'store'));

/** A JSON file (a manifest, a build's shared-api lists) from a URL or a path. @param {string} where */
async function readJson(where) {
  if (/^https?:\/\//.test(where)) {
    const res = await fetch(where, { cache: 'no-store' });
    if (!res.ok) throw new Error(`${where} answered ${res.status}`);
    return res.json();
  }
  return JSON.parse(readFileSync(where, 'utf8'));
}

/** The file beside a manifest (a URL or a path), or null when it cannot be read. @param {string} manifest @param {string} file */
async function besideManifest(manifest, file) {
  try {
    return await readJson(/^https?:\/\//.test(manifest) ? new URL(file, manifest).href : join(dirname(manifest), file));
  } catch {
    return null;
  }
}

/** @param {string | undefined} name @returns {{ remote: string, pkg: string }} */
function remoteNamed(name) {
  const entry = name ? PLATFORM.remotes[name] : undefined;
  if (!name || !entry) {
    console.error(`name a remote of the platform table: ${Object.keys(PLATFORM.remotes).join(', ')}`);
    process.exit(2);
  }
  return { remote: name, pkg: entry.package };
}

const [command, name, ...rest] = process.argv.slice(2);
const option = (/** @type {string} */ flag) => {
  const i = rest.indexOf(flag);
  return i >= 0 ? rest[i + 1] : undefined;
};

if (command === 'release' && rest.includes('--promote')) {
  const { remote } = remoteNamed(name);
  try {
    const entry = await promote({ store, remote });
    console.log(`${remote} ${entry.to} is live for every browser (was ${entry.from ?? 'nothing'})`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
} else if (command === 'release') {
  const { remote, pkg } = remoteNamed(name);
  const canaryOption = option('--canary');
  const canary = canaryOption === undefined ? undefined : Number(canaryOption);
  const dist = resolve(option('--dist') ?? join(root, pkg, 'dist'));
  if (!existsSync(join(dist, 'mf-manifest.json'))) {
    console.error(`${dist} has no build: run pnpm --filter ${pkg} build first, or pass --dist`);
    process.exit(2);
  }
  const shellManifest =
    process.env.LIVE_SHELL_MANIFEST ?? join(root, PLATFORM.shell.package, 'dist', 'mf-manifest.json');
  // The smoke load always runs, in the live shell at LIVE_SHELL_URL (it reads this store) or, without
  // one, in the live shell's build served here on loopback; only --skip-smoke skips it, on the record.
  const skipSmoke = rest.includes('--skip-smoke');
  const shellDist = /^https?:\/\//.test(shellManifest) ? null : dirname(shellManifest);
  if (!skipSmoke && !process.env.LIVE_SHELL_URL && !(shellDist && existsSync(join(shellDist, 'index.html')))) {
    console.error(
      `the smoke load needs the live shell: set LIVE_SHELL_URL, build the shell (${shellManifest}), or pass --skip-smoke`,
    );
    process.exit(2);
  }
  if (skipSmoke) console.warn('smoke load skipped (--skip-smoke): recorded in the history');
  const entry = await release({
    store,
    remote,
    dist,
    ...(canary === undefined ? {} : { canary }),
    ...(skipSmoke ? { smoke: /** @type {const} */ ('skipped') } : {}),
    async gate({ dir, version }) {
      const candidate = await readJson(join(dir, 'mf-manifest.json'));
      const problems = [
        ...singletonProblems(candidate, await readJson(shellManifest)),
        ...sharedExportProblems(
          await besideManifest(join(dir, 'mf-manifest.json'), 'shared-imports.json'),
          await besideManifest(shellManifest, 'shared-exports.json'),
        ),
        ...exposeProblems(candidate, remote),
      ];
      if (problems.length === 0 && !skipSmoke) {
        const local = process.env.LIVE_SHELL_URL
          ? null
          : await serveLocalPlatform({ store, shellDist: shellDist ?? '', root });
        try {
          const shellUrl = process.env.LIVE_SHELL_URL ?? local?.shellUrl ?? '';
          problems.push(...(await smokeLoad({ shellUrl, remote, version })).map((p) => `smoke load: ${p}`));
        } finally {
          await local?.stop();
        }
      }
      return problems.length ? problems.join('; ') : null;
    },
  });
  if (entry.result === 'refused') {
    console.error(`refused ${remote} ${entry.version}: ${entry.reason}\nStill live: ${entry.from ?? 'nothing'}.`);
    process.exit(1);
  }
  console.log(
    entry.result === 'canary'
      ? `${remote} ${entry.version} is the canary for ${entry.percent} % of browsers (the rest stay on ${entry.from}); pnpm release ${remote} --promote or pnpm rollback ${remote}`
      : `${remote} ${entry.version} is live (was ${entry.from ?? 'nothing'}); the store is ${store}`,
  );
} else if (command === 'rollback') {
  const { remote } = remoteNamed(name);
  try {
    const entry = await rollback({ store, remote });
    console.log(
      entry.result === 'dropped'
        ? `${remote}'s canary ${entry.from} is dropped: every browser is on ${entry.to}`
        : `${remote} is back on ${entry.to} (was ${entry.from})`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
} else if (command === 'list') {
  const doc = readDiscovery(store);
  console.log('live:');
  for (const remote of Object.keys(PLATFORM.remotes)) {
    const entry = doc.remotes[remote];
    const canary = entry?.canary ? `  canary ${entry.canary.version} for ${entry.canary.percent} %` : '';
    console.log(`  ${remote.padEnd(12)} ${entry?.live?.version ?? '(not released)'}${canary}`);
  }
  console.log('history:');
  for (const e of readHistory(store)) {
    console.log(
      `  ${e.time}  ${e.remote.padEnd(12)} ${e.action.padEnd(8)} ${e.from ?? '-'} -> ${e.to ?? '-'}  ${e.result}${e.reason ? `: ${e.reason}` : ''}${e.smoke === 'skipped' ? '  (smoke load skipped)' : ''}`,
    );
  }
} else {
  console.error(
    'usage: pnpm release <remote> [--dist <dir>] [--canary <percent>] [--skip-smoke] | pnpm release <remote> --promote | pnpm rollback <remote> | pnpm releases',
  );
  process.exit(2);
}
