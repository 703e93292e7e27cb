import { REMOTE_NAMES, type Owner, type RemoteName } from '@marketplace/shared/platform';

/** The attribute each remote slot puts on its root (RemoteSlot), naming the remote inside it. */
export const SLOT_ATTRIBUTE = 'data-remote';

const isRemote = (value: string | null | undefined): value is RemoteName => REMOTE_NAMES.includes(value as RemoteName);

/** The remote whose slot holds a node (an LCP element, an interaction's target), else the shell. */
export function ownerOfNode(node: Node | null | undefined): Owner {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  const owner = element?.closest(`[${SLOT_ATTRIBUTE}]`)?.getAttribute(SLOT_ATTRIBUTE);
  return isRemote(owner) ? owner : 'shell';
}

/**
 * The remote whose files a stack runs through, else the shell: the first frame, from the top,
 * under a remote's base URL (the folder of the manifest the page loaded it from). A remote's code
 * called by the shell's React still names the remote; an error in the shell's own code names none.
 */
export function ownerOfStack(stack: string | undefined, bases: Partial<Record<RemoteName, string>>): Owner {
  if (!stack) return 'shell';
  const known = (Object.entries(bases) as [RemoteName, string][]).filter(([, base]) => base);
  for (const url of stack.match(/\b(?:https?|file):\/\/[^\s)'"]+/g) ?? []) {
    // The longest base first: a store serves every remote from one origin, under its own folder.
    const match = known.filter(([, base]) => url.startsWith(base)).sort((a, b) => b[1].length - a[1].length)[0];
    if (match) return match[0];
  }
  return 'shell';
}
