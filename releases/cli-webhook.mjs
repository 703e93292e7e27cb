// `pnpm release <remote> --webhook <url>`: the webhook paged when the watcher cannot read the
// remote's figures three evaluations in a row, and on every rollback and promotion; `off` removes it.
import { messageOf } from '@marketplace/shared/errors';
import { optionIn, remoteNamed } from './cli-args.mjs';
import { setWebhook, webhookOrigin } from './webhook.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function webhookCommand({ store, name, rest }) {
  const { remote } = remoteNamed(name);
  const value = optionIn(rest, '--webhook');
  if (!value) {
    console.error('--webhook takes the URL to POST to, or off');
    process.exit(2);
  }
  const url = value === 'off' ? null : value;
  try {
    await setWebhook({ store, remote, url });
  } catch (error) {
    console.error(messageOf(error));
    process.exit(2);
  }
  console.log(
    url
      ? `${remote}'s webhook is ${webhookOrigin(url)}: called when its figures are unreadable 3 evaluations in a row, and on every rollback and promotion`
      : `${remote} has no webhook any more`,
  );
}
