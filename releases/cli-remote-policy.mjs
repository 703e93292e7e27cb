// `pnpm release <remote> --policy [policy options]`: the remote's canary policy, kept in the
// store, for the canaries released after (each option changes the policy set before, or the
// default); a canary under way keeps its own.
import { remoteNamed } from './cli-args.mjs';
import { policyOptions } from './cli-policy.mjs';
import { setRemotePolicy, storedPolicy } from './remote-policy.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function remotePolicyCommand({ store, name, rest }) {
  const { remote } = remoteNamed(name);
  const policy = policyOptions(rest, storedPolicy(store, remote));
  await setRemotePolicy({ store, remote, policy });
  console.log(`${remote}'s canaries released from now on are watched under: ${JSON.stringify(policy)}`);
}
