// `pnpm release <remote> --watch` on the canary under way: followed; given a policy when it has
// none, when it was left inconclusive (watch again, with a later deadline), or when options change
// its policy.
import { remoteNamed } from './cli-args.mjs';
import { follow } from './cli-follow.mjs';
import { POLICY_FLAGS, policyOptions } from './cli-policy.mjs';
import { JUDGED_FIELDS, keepingRule } from './canary-policy.mjs';
import { storedPolicy } from './remote-policy.mjs';
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
  const given = policyOptions(rest, state.policy ?? storedPolicy(store, remote));
  const policy = state.policy ? keepingRule(state.policy, given) : given;
  const kept = JUDGED_FIELDS.filter((field) => JSON.stringify(given[field]) !== JSON.stringify(policy[field]));
  if (kept.length > 0)
    console.log(
      `${remote}'s canary keeps the rule it was first watched under (${kept.map((field) => `${field} ${JSON.stringify(policy[field])}`).join(', ')}): its evaluations so far were judged by it. Give the new values to the next canary.`,
    );
  if (!state.policy || state.held || POLICY_FLAGS.some((flag) => rest.includes(flag)))
    await watchWith({ store, remote, policy });
  await follow({ store, root }, remote, policy);
}
