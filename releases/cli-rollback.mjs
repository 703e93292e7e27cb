// `pnpm rollback <remote>`: the canary dropped, or the version live before; then announced to open
// pages and told to the remote's webhook (best effort).
import { messageOf } from '@marketplace/shared/errors';
import { announceRollback } from './announce.mjs';
import { remoteNamed } from './cli-args.mjs';
import { apiAccess } from './figures.mjs';
import { rollback } from './store.mjs';
import { createPager } from './webhook.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function rollbackCommand({ store, root, name }) {
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
    const pager = createPager({ store });
    pager.page({
      remote,
      kind: 'rolled-back',
      versions: { from: entry.from, to: entry.to },
      reason: `pnpm rollback ${remote}`,
    });
    await pager.settled();
  } catch (error) {
    console.error(messageOf(error));
    process.exit(1);
  }
}
