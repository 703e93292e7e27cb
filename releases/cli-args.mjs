// The command line of the release commands: what a command is run with, the remote it names and
// the value of an option.
import { PLATFORM } from '@marketplace/shared/node/platform';

/**
 * What a command runs with: the store, the workspace (the apps' builds are found there), the
 * remote named and the arguments after it.
 * @typedef {{ store: string, root: string, name: string | undefined, rest: string[] }} Invocation
 */

/** The value after `flag` among `args`, if any. @param {(string | undefined)[]} args @param {string} flag */
export const optionIn = (args, flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};

/** @param {string | undefined} name @returns {{ remote: string, pkg: string }} */
export function remoteNamed(name) {
  const entry = name ? PLATFORM.remotes[name] : undefined;
  if (!name || !entry) {
    console.error(`name a remote of the platform table: ${Object.keys(PLATFORM.remotes).join(', ')}`);
    process.exit(2);
  }
  return { remote: name, pkg: entry.package };
}
