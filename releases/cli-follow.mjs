// `--watch`'s following, for the release commands: prints the canary's evaluations until it is
// decided and exits with the decision's code.
import { announceRollback } from './announce.mjs';
import { promotionLoads } from './canary.mjs';
import { harmText } from './canary-policy.mjs';
import { apiAccess, fetchFigures } from './figures.mjs';
import { followCanary, serviceRuns } from './watch.mjs';
import { createPager } from './webhook.mjs';

/**
 * Follows `remote`'s canary until it is decided (watch.mjs): judged by the watcher service when
 * one runs on the store, else here. Exits 1 on a rollback, 3 when inconclusive at the deadline;
 * Ctrl-C stops following and nothing else.
 * @param {{ store: string, root: string }} where @param {string} remote @param {import('./canary.mjs').Policy} policy
 */
export async function follow({ store, root }, remote, policy) {
  const api = apiAccess(process.env, root);
  const last = policy.steps.at(-1) ?? 50;
  const needed = promotionLoads({ canaryRate: 0.01, liveRate: 0.01, share: last / 100, policy });
  console.log(
    `watching ${remote}'s canary every ${policy.intervalSeconds} s on the real-user figures (${api.url} when judged here): rolled back on evidence that its error rate is higher than live's, that its p75 LCP or INP is more than ${Math.round(policy.lcpMargin * 100)} / ${Math.round(policy.inpMargin * 100)} % worse, or that its share of page loads is far below its share (sequential tests: at most ${policy.alpha * 100} % of canaries as good as live are rolled back, however long it watches); stepped up through ${policy.steps.join(', ')} % after ${policy.holdIntervals} evaluations each, and promoted on evidence that its error rate is not higher by ${harmText(policy)} or more and its vitals not worse by their margins (at 1 % failed loads on both sides that takes at least ${needed} canary loads); each side needs ${policy.minLoads} page loads; ${policy.atDeadline === 'rollback' ? 'rolled back' : 'held at its share'} when undecided after ${policy.deadlineIntervals} evaluations`,
  );
  process.on('SIGINT', () => {
    console.log(
      serviceRuns(store)
        ? `stopped following: the watcher service goes on judging ${remote}'s canary`
        : `stopped: no watcher service runs on ${store}, so ${remote}'s canary is not judged until one does (pnpm --filter releases watcher) or --watch runs again; its policy and evaluations are kept`,
    );
    process.exit(130);
  });
  const pager = createPager({ store });
  const decision = await followCanary({
    store,
    remote,
    readFigures: async (since) => (await fetchFigures(api, since)).figures,
    announce: (rollback) => announceRollback(api, rollback),
    pager,
    judgeHere: () => !serviceRuns(store),
  });
  // The webhook's call for the decision judged here, within its timeout, before the process ends.
  await pager.settled();
  if (decision?.action === 'rollback') {
    console.error(`${remote}'s canary was rolled back: ${decision.reason}`);
    process.exit(1);
  }
  if (decision?.action === 'promote') {
    console.log(`${remote}'s canary is promoted: live for every browser`);
    if (policy.bakeIntervals)
      console.log(
        `the watcher service bakes it for ${policy.bakeIntervals} evaluations against the version it replaced, and rolls it back on harm${serviceRuns(store) ? '' : ` (none runs on ${store} now: the bake starts when one does)`}`,
      );
  }
  if (decision?.action === 'inconclusive') {
    console.error(`${remote}'s canary is undecided, held at ${decision.percent} %: ${decision.reason}`);
    process.exit(3);
  }
  process.exit(0);
}
