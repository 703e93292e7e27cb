import {
  BEACON_FRAME_CHARS,
  REMOTE_NAMES,
  type BeaconError,
  type Owner,
  type PageErrorReport,
  type RemoteName,
} from '@marketplace/shared/platform';

/** The attribute each remote slot puts on its root (RemoteSlot), naming the remote inside it. */
export const SLOT_ATTRIBUTE = 'data-remote';

const isRemote = (value: string | null | undefined): value is RemoteName => REMOTE_NAMES.includes(value as RemoteName);

/** The remote whose slot holds a node (an LCP element, an interaction's target), else the shell. */
export function ownerOfNode(node: Node | null | undefined): Owner {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  const owner = element?.closest(`[${SLOT_ATTRIBUTE}]`)?.getAttribute(SLOT_ATTRIBUTE);
  return isRemote(owner) ? owner : 'shell';
}

/** Where each remote's code runs from: a URL prefix in the browser (its manifest's folder), a folder on the server. */
export type RemoteBases = Partial<Record<RemoteName, string>>;

/**
 * The locations a stack names, from the top: URLs (a browser's frames) and absolute paths (the
 * frames of code Node runs from a file, as the page server runs remotes' server builds).
 */
const LOCATION = /\b(?:https?|file):\/\/[^\s)'"]+|(?<=[\s(@])\/[^\s)'"]+/g;

/**
 * The remote whose files a stack runs through, else the shell: the first frame, from the top,
 * under a remote's base. A remote's code called by the shell's React still names the remote; an
 * error in the shell's own code names none. A component stack (React's, one frame per component
 * from the one that failed up to the root) reads the same way.
 */
export function ownerOfStack(stack: string | undefined, bases: RemoteBases): Owner {
  for (const location of stack?.match(LOCATION) ?? []) {
    const remote = remoteOfLocation(location, bases);
    if (remote) return remote;
  }
  return 'shell';
}

/** The remote whose files a location lies in, if any. */
function remoteOfLocation(location: string, bases: RemoteBases): RemoteName | undefined {
  // The longest base first: a store serves every remote from one origin, under its own folder.
  const known = (Object.entries(bases) as [RemoteName, string][]).filter(([, base]) => base);
  return known.filter(([, base]) => location.startsWith(base)).sort((a, b) => b[1].length - a[1].length)[0]?.[0];
}

/** A location's line and column at its end (the shortest file before them: a port is not a line). */
const LINE_AND_COLUMN = /^(.+?)(:\d+(?::\d+)?)$/;

/**
 * A stack's location as a beacon's frame: `path:line:column`. A URL keeps only its path: its
 * origin is the store's (the same in every frame) and a query or fragment could carry what is
 * not ours to send. Cut to BEACON_FRAME_CHARS from the start, so the file and its line stay.
 * Null for a location without a line (a URL in the error's message).
 */
export function frameOfLocation(location: string): string | null {
  const [, file = '', position = ''] = LINE_AND_COLUMN.exec(location) ?? [];
  if (!file) return null;
  let path = file;
  if (/^(?:https?|file):\/\//.test(file)) {
    try {
      path = new URL(file).pathname;
    } catch {
      return null;
    }
  }
  return `${path}${position}`.slice(-BEACON_FRAME_CHARS);
}

/** How deep a `cause` chain is followed; a cycle (an error its own cause) ends it too. */
const MAX_CAUSES = 8;

/** An error, then its `cause`, and so on: the last is the original. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [error];
  for (let e = error; chain.length <= MAX_CAUSES && e instanceof Error && e.cause !== undefined;) {
    if (chain.includes(e.cause)) break;
    e = e.cause;
    chain.push(e);
  }
  return chain;
}

/**
 * The error behind the wrappers: React reports a render it recovered from, and a part it
 * rendered afresh instead of hydrating, as its own Error whose `cause` is what the remote threw,
 * and whose stack is React's (the shell's files).
 */
export const originalError = (error: unknown): unknown => causeChain(error).at(-1);

const stackOf = (error: unknown): string | undefined => (error instanceof Error ? error.stack : undefined);

/**
 * Who an error belongs to: the original error's stack (its cause chain unwrapped), then each
 * wrapper's, then the component stack React gave with it (the component that failed, then its
 * parents), then `location` (the script an uncaught error came from); else the shell.
 */
export function ownerOfError(
  error: unknown,
  bases: RemoteBases,
  { componentStack, location }: { componentStack?: string; location?: string } = {},
): Owner {
  const stacks = [...causeChain(error).reverse().map(stackOf), componentStack, location];
  for (const stack of stacks) {
    const owner = ownerOfStack(stack, bases);
    if (owner !== 'shell') return owner;
  }
  return 'shell';
}

/**
 * Where an error was thrown in its owner remote's code: the first frame from the top, in the same
 * stacks ownerOfError reads and in that order, that lies in the owner's files (frameOfLocation).
 * None for the shell, whose files have no base here (a frame outside every remote may be the
 * page's own address, an inline script), and none from `location` (a file without its line).
 */
export function frameOfError(
  error: unknown,
  owner: Owner,
  bases: RemoteBases,
  { componentStack }: { componentStack?: string } = {},
): string | undefined {
  if (owner === 'shell') return undefined;
  for (const stack of [...causeChain(error).reverse().map(stackOf), componentStack])
    for (const location of stack?.match(LOCATION) ?? []) {
      const frame = remoteOfLocation(location, bases) === owner ? frameOfLocation(location) : null;
      if (frame) return frame;
    }
  return undefined;
}

/** The beacon's error: its owner, kind and words, with its frame when it has one. */
const beaconError = (owner: Owner, kind: BeaconError['kind'], message: string, frame?: string): BeaconError => ({
  owner,
  kind,
  message,
  ...(frame && { frame }),
});

/** An error's words for the beacon: the original error's name and message. */
export const describeError = (error: unknown): string => {
  const original = originalError(error);
  return original instanceof Error ? `${original.name}: ${original.message}` : String(original);
};

/**
 * A part the server could not finish (#419), which the browser renders afresh: the server's own
 * record of that failure (a `server` report, attributed there) is what counts it, once.
 */
const SERVER_COULD_NOT_FINISH = /server could not finish this Suspense boundary|React error #419\b/i;

/**
 * What the beacon says of a page error (shared/src/platform/pageErrors.ts), or null when it is
 * counted elsewhere: a part its server could not finish, which the server's report counts. A
 * render error (caught by a boundary, uncaught, or recovered from by rendering again) is `render`,
 * as is a failure of the page's server; the window's are `uncaught` and `rejection`.
 */
export function beaconErrorOf(report: PageErrorReport, bases: RemoteBases): BeaconError | null {
  switch (report.kind) {
    case 'server':
      // The server's report carries its message only: no stack, so no frame.
      return beaconError(report.remote, 'render', report.message);
    case 'error': {
      // A script served without CORS or loaded without crossorigin: "Script error.", no error, no file.
      const words = report.error == null ? report.message || 'Script error.' : describeError(report.error);
      const owner = ownerOfError(report.error, bases, { location: report.filename });
      return beaconError(owner, 'uncaught', words, frameOfError(report.error, owner, bases));
    }
    case 'rejection': {
      const owner = ownerOfError(report.error, bases);
      return beaconError(owner, 'rejection', describeError(report.error), frameOfError(report.error, owner, bases));
    }
    case 'recoverable':
    case 'caught':
    case 'uncaught': {
      if (report.kind === 'recoverable' && SERVER_COULD_NOT_FINISH.test(describeError(report.error))) return null;
      // Recovered from or not, the remote did throw.
      const stacks = { componentStack: report.componentStack };
      const owner = ownerOfError(report.error, bases, stacks);
      return beaconError(
        owner,
        'render',
        describeError(report.error),
        frameOfError(report.error, owner, bases, stacks),
      );
    }
  }
}
