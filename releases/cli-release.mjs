// `pnpm release <remote> [--dist <dir>] [--canary N [--watch]] [--skip-smoke]`: the build stored,
// gated (cli-gate.mjs) and made live, or the canary for N % of browsers; with --watch, followed
// until the watcher decides it.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { optionIn, remoteNamed } from './cli-args.mjs';
import { follow } from './cli-follow.mjs';
import { releaseGate } from './cli-gate.mjs';
import { policyOptions } from './cli-policy.mjs';
import { storedPolicy } from './remote-policy.mjs';
import { release } from './store.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function releaseCommand({ store, root, name, rest }) {
  const option = (/** @type {string} */ flag) => optionIn(rest, flag);
  const { remote, pkg } = remoteNamed(name);
  const canaryOption = option('--canary');
  const canary = canaryOption === undefined ? undefined : Number(canaryOption);
  // Read before anything is released: a canary with --watch is the watcher's from its first line.
  const policy =
    canary !== undefined && rest.includes('--watch') ? policyOptions(rest, storedPolicy(store, remote)) : undefined;
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
    ...(policy ? { policy } : {}),
    ...(skipSmoke ? { smoke: /** @type {const} */ ('skipped') } : {}),
    gate: releaseGate({ store, root, remote, shellManifest, shellDist, skipSmoke }),
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
  if (entry.result === 'canary' && policy) await follow({ store, root }, remote, policy);
}
