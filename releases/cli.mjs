#!/usr/bin/env node
// `pnpm release <remote> [--canary N | --promote]`, `pnpm rollback <remote>`, `pnpm releases`:
// the release store is RELEASES_DIR (default: releases/store/, beside this file); the live
// shell's manifest, read for the gate, is LIVE_SHELL_MANIFEST (a URL or a file; default: the
// shell's build, shell/dist/mf-manifest.json); LIVE_SHELL_URL, the shell that reads this store, is
// where the gate's smoke load opens the candidate, and without it the smoke load serves the live
// shell's build and the store on loopback (local-platform.mjs). `--skip-smoke` skips it, recorded
// in the history. `--watch` gives the canary the watcher's policy (kept in the store) and follows
// its evaluations on real-user figures until it is decided: the watcher service
// (watcher-service.mjs) judges it when one runs on the store, else this command does, with the
// same step (watch.mjs), the figures read from the API at API_INTERNAL_URL or PLATFORM_API_URL with
// ADMIN_TOKEN (figures.mjs); `pnpm releases` shows them per remote and version, and
// `--report <file>` writes them as an HTML page with charts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { messageOf } from '@marketplace/shared/errors';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { exposeProblems, sharedExportProblems, singletonProblems } from './gate.mjs';
import { DEFAULT_POLICY, promotionLoads } from './canary.mjs';
import { announceRollback } from './announce.mjs';
import { apiAccess, fetchFigures, figureLines, sinceTime } from './figures.mjs';
import { htmlReport } from './report.mjs';
import { promote, readDiscovery, readHistory, release, rollback } from './store.mjs';
import { serveLocalPlatform } from './local-platform.mjs';
import { smokeLoad, smokeRender } from './smoke.mjs';
import { canaryState, followCanary, serviceRuns, watchWith } from './watch.mjs';

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

/** A number option within bounds, else the usage error. @param {string} flag @param {number} fallback @param {number} min @param {number} max */
function numberOption(flag, fallback, min, max) {
  const value = option(flag);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n >= min && n <= max)) {
    console.error(`${flag} takes a number from ${min} to ${max}, not '${value}'`);
    process.exit(2);
  }
  return n;
}

const POLICY_FLAGS = [
  '--steps',
  '--alpha',
  '--margin',
  '--interval',
  '--min-loads',
  '--hold',
  '--deadline',
  '--lcp-margin',
  '--inp-margin',
];

/**
 * The watcher's policy: `base` (the defaults of canary.mjs, or the policy the canary was given
 * before), each changeable by its option.
 * @param {import('./canary.mjs').Policy} [base] @returns {import('./canary.mjs').Policy}
 */
function policyOptions(base = DEFAULT_POLICY) {
  const steps = (option('--steps') ?? base.steps.join(',')).split(',').filter(Boolean).map(Number);
  if (!steps.every((n) => Number.isInteger(n) && n > 0 && n < 100)) {
    console.error('--steps takes shares from 1 to 99, comma-separated (after the last one the canary is promoted)');
    process.exit(2);
  }
  const alpha = numberOption('--alpha', base.alpha, 0.0001, 0.5);
  return {
    ...base,
    alpha,
    promoteAlpha: option('--alpha') === undefined ? base.promoteAlpha : alpha,
    margin: numberOption('--margin', base.margin, 0.0001, 0.99),
    intervalSeconds: numberOption('--interval', base.intervalSeconds, 1, 86_400),
    minLoads: numberOption('--min-loads', base.minLoads, 1, 1e9),
    holdIntervals: numberOption('--hold', base.holdIntervals, 1, 1000),
    deadlineIntervals: numberOption('--deadline', base.deadlineIntervals, 1, 100_000),
    lcpMargin: numberOption('--lcp-margin', base.lcpMargin, 0, 10),
    inpMargin: numberOption('--inp-margin', base.inpMargin, 0, 10),
    steps,
  };
}

/**
 * Follows `remote`'s canary until it is decided (watch.mjs): judged by the watcher service when
 * one runs on the store, else here. Exits 1 on a rollback, 3 when inconclusive at the deadline;
 * Ctrl-C stops following and nothing else.
 * @param {string} remote @param {import('./canary.mjs').Policy} policy
 */
async function follow(remote, policy) {
  const api = apiAccess(process.env, root);
  const last = policy.steps.at(-1) ?? 50;
  const needed = promotionLoads({ canaryRate: 0.01, liveRate: 0.01, share: last / 100, policy });
  console.log(
    `watching ${remote}'s canary every ${policy.intervalSeconds} s on the real-user figures (${api.url} when judged here): rolled back on evidence that its error rate is higher than live's, that its p75 LCP or INP is more than ${Math.round(policy.lcpMargin * 100)} / ${Math.round(policy.inpMargin * 100)} % worse, or that its share of page loads is far below its share (sequential tests: at most ${policy.alpha * 100} % of canaries as good as live are rolled back, however long it watches); stepped up through ${policy.steps.join(', ')} % after ${policy.holdIntervals} evaluations each, and promoted on evidence that its error rate is not higher by ${policy.margin * 100} points or more and its vitals not worse by their margins (at 1 % failed loads on both sides that takes at least ${needed} canary loads); each side needs ${policy.minLoads} page loads; inconclusive after ${policy.deadlineIntervals} evaluations`,
  );
  process.on('SIGINT', () => {
    console.log(
      serviceRuns(store)
        ? `stopped following: the watcher service goes on judging ${remote}'s canary`
        : `stopped: no watcher service runs on ${store}, so ${remote}'s canary is not judged until one does (pnpm --filter releases watcher) or --watch runs again; its policy and evaluations are kept`,
    );
    process.exit(130);
  });
  const decision = await followCanary({
    store,
    remote,
    readFigures: async (since) => (await fetchFigures(api, since)).figures,
    announce: (rollback) => announceRollback(api, rollback),
    judgeHere: () => !serviceRuns(store),
  });
  if (decision?.action === 'rollback') {
    console.error(`${remote}'s canary was rolled back: ${decision.reason}`);
    process.exit(1);
  }
  if (decision?.action === 'promote') console.log(`${remote}'s canary is promoted: live for every browser`);
  if (decision?.action === 'inconclusive') {
    console.error(`${remote}'s canary is undecided, held at ${decision.percent} %: ${decision.reason}`);
    process.exit(3);
  }
  process.exit(0);
}

if (command === 'release' && rest.includes('--watch') && !rest.includes('--canary')) {
  // The canary under way: followed; given a policy when it has none, when it was left
  // inconclusive (watch again, with a later deadline), or when options change its policy.
  const { remote } = remoteNamed(name);
  const state = canaryState(readDiscovery(store), readHistory(store), remote);
  if (!state) {
    console.error(`${remote} has no canary under way: pnpm release ${remote} --canary <percent> --watch`);
    process.exit(2);
  }
  const policy = policyOptions(state.policy ?? DEFAULT_POLICY);
  if (!state.policy || state.held || POLICY_FLAGS.some((flag) => rest.includes(flag)))
    await watchWith({ store, remote, policy });
  await follow(remote, policy);
} else if (command === 'release' && rest.includes('--promote')) {
  const { remote } = remoteNamed(name);
  try {
    const entry = await promote({ store, remote });
    console.log(`${remote} ${entry.to} is live for every browser (was ${entry.from ?? 'nothing'})`);
  } catch (error) {
    console.error(messageOf(error));
    process.exit(1);
  }
} else if (command === 'release') {
  const { remote, pkg } = remoteNamed(name);
  const canaryOption = option('--canary');
  const canary = canaryOption === undefined ? undefined : Number(canaryOption);
  // Read before anything is released: a canary with --watch is the watcher's from its first line.
  const policy = canary !== undefined && rest.includes('--watch') ? policyOptions() : undefined;
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
          // The page server renders it too: the shell's server build renders the candidate's pages.
          if (shellDist)
            problems.push(
              ...(await smokeRender({ shellUrl, shellDist, remote, version })).map((p) => `smoke load: ${p}`),
            );
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
  if (entry.result === 'canary' && policy) await follow(remote, policy);
} else if (command === 'rollback') {
  const { remote } = remoteNamed(name);
  try {
    const entry = await rollback({ store, remote });
    console.log(
      entry.result === 'dropped'
        ? `${remote}'s canary ${entry.from} is dropped: every browser is on ${entry.to}`
        : `${remote} is back on ${entry.to} (was ${entry.from})`,
    );
    const unheard = await announceRollback(apiAccess(process.env, root), {
      remote,
      version: entry.from ?? '',
      to: entry.to,
    });
    console.log(
      unheard
        ? `open pages were not told (${unheard}): they switch on focus, a slot's Retry or their next navigation`
        : 'announced to open pages on the live channel',
    );
  } catch (error) {
    console.error(messageOf(error));
    process.exit(1);
  }
} else if (command === 'list') {
  const doc = readDiscovery(store);
  const remotes = Object.keys(PLATFORM.remotes);
  // `pnpm releases [--since 24h] [--report <file>]`: the list below, then the figures.
  const allArgs = [name, ...rest].filter((a) => a !== undefined);
  const listOption = (/** @type {string} */ flag) => {
    const i = allArgs.indexOf(flag);
    return i >= 0 ? allArgs[i + 1] : undefined;
  };
  let since = '';
  try {
    since = sinceTime(listOption('--since') ?? '24h');
  } catch (error) {
    console.error(messageOf(error));
    process.exit(2);
  }
  console.log('live:');
  for (const remote of Object.keys(PLATFORM.remotes)) {
    const entry = doc.remotes[remote];
    const canary = entry?.canary ? `  canary ${entry.canary.version} for ${entry.canary.percent} %` : '';
    console.log(`  ${remote.padEnd(12)} ${entry?.live?.version ?? '(not released)'}${canary}`);
  }
  console.log('history:');
  const history = readHistory(store);
  for (const e of history) {
    const what =
      e.action === 'watch' ? `${e.decision} at ${e.percent} %` : e.action === 'policy' ? 'watched' : e.result;
    console.log(
      `  ${e.time}  ${e.remote.padEnd(12)} ${e.action.padEnd(8)} ${e.from ?? '-'} -> ${e.to ?? '-'}  ${what}${e.reason ? `: ${e.reason}` : ''}${e.smoke === 'skipped' ? '  (smoke load skipped)' : ''}`,
    );
  }
  const api = apiAccess(process.env, root);
  try {
    const answer = await fetchFigures(api, since);
    const table = figureLines(doc, answer.figures, remotes);
    console.log(`real-user figures since ${since} (page loads that used each version; p75 of their page's vitals):`);
    for (const line of table) console.log(line);
    const report = listOption('--report');
    if (report) {
      writeFileSync(
        report,
        htmlReport({ generated: new Date().toISOString(), since, remotes, doc, table, series: answer.series, history }),
      );
      console.log(`report: ${resolve(report)}`);
    }
  } catch (error) {
    console.log(
      `real-user figures: not available from the API at ${api.url} (${messageOf(error)}); set PLATFORM_API_URL and ADMIN_TOKEN`,
    );
  }
} else {
  console.error(
    'usage: pnpm release <remote> [--dist <dir>] [--canary <percent> [--watch [--interval s] [--min-loads n] [--hold n] [--steps 25,50] [--alpha 0.05] [--margin 0.01] [--deadline n] [--lcp-margin 0.2] [--inp-margin 0.2]]] [--skip-smoke] | pnpm release <remote> --watch [policy options] | pnpm release <remote> --promote | pnpm rollback <remote> | pnpm releases [--since 24h] [--report <file>]',
  );
  process.exit(2);
}
