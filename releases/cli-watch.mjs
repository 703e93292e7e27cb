// `pnpm release <remote> --watch` on the canary under way: followed; given a policy when it has
// none, when it was left inconclusive (watch again, with a later deadline), or when options change
// its policy.
import { remoteNamed } from './cli-args.mjs';
import { follow } from './cli-follow.mjs';
import { POLICY_FLAGS, policyOptions } from './cli-policy.mjs';
import { DEFAULT_POLICY } from './canary.mjs';
import { readDiscovery, readHistory } from './store.mjs';
import { canaryState, watchWith } from './watch.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function watchCommand({ store, root, name, rest }) {
  const { remote } = remoteNamed(name);
  const state = canaryState(readDiscovery(store), readHistory(store), remote);
  if (!state) {
    console.error(`${remote} has no canary under way: pnpm release ${remote} --canary <percent> --watch`);
    process.exit(2);
  }
  const policy = policyOptions(rest, state.policy ?? DEFAULT_POLICY);
  if (!state.policy || state.held || POLICY_FLAGS.some((flag) => rest.includes(flag)))
    await watchWith({ store, remote, policy });
  await follow({ store, root }, remote, policy);
}
