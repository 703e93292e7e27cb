// `pnpm release <remote> --promote`: the canary made live for every browser, told to the remote's
// webhook.
import { messageOf } from '@marketplace/shared/errors';
import { remoteNamed } from './cli-args.mjs';
import { promote } from './store.mjs';
import { createPager } from './webhook.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function promoteCommand({ store, name }) {
  const { remote } = remoteNamed(name);
  try {
    const entry = await promote({ store, remote });
    console.log(`${remote} ${entry.to} is live for every browser (was ${entry.from ?? 'nothing'})`);
    const pager = createPager({ store });
    pager.page({
      remote,
      kind: 'promoted',
      versions: { from: entry.from, to: entry.to },
      reason: `pnpm release ${remote} --promote`,
    });
    await pager.settled();
  } catch (error) {
    console.error(messageOf(error));
    process.exit(1);
  }
}
