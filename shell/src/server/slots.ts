import {
  type Composition,
  type PageRoute,
  type RemoteName,
  type RuntimeConfig,
  type ServerFailure,
} from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
import { withTimeout } from '@marketplace/shared/timeout';
import { versionsForRequest } from '../remotes/requestVersions.js';
import type { PreloadedSlot, SlotComponent } from '../remotes/preloaded.js';
import { describeError, ownerOfError, type RemoteBases } from '../telemetry/attribution.js';
import type { RenderRequest } from './contract.js';
import type { PassError } from './renderPass.js';

/** The remote modules a page starts with, loaded: by slot id (`remote/Exposed`), and the manifest each came from. */
export interface LoadedSlots {
  preloaded: Map<string, PreloadedSlot>;
  slots: Record<string, string>;
}

/**
 * Loads the header's and the route's modules at the versions the browser will take, each within
 * `remoteMs`; one that fails (or whose version the browser will choose itself) is the browser's,
 * and why goes into `problems`.
 */
export async function loadSlots(
  request: RenderRequest,
  config: RuntimeConfig,
  composition: Composition,
  route: PageRoute | undefined,
  remoteMs: number,
  problems: string[],
): Promise<LoadedSlots> {
  const { search } = new URL(request.url, 'http://page');
  const resolved = versionsForRequest(config, composition, request.cookie, search);
  const wanted: [RemoteName, string][] = [['header', 'Header']];
  if (route) wanted.push([route.remote, route.module]);
  const preloaded = new Map<string, PreloadedSlot>();
  const slots: Record<string, string> = {};
  await Promise.all(
    wanted.map(async ([remote, exposed]) => {
      if (resolved.undecided.has(remote)) return;
      const manifestUrl = resolved.remotes[remote];
      const id = `${remote}/${exposed}`;
      try {
        const loading = request.load({ remote, manifestUrl, manifest: resolved.manifests.get(manifestUrl), exposed });
        const loaded = await withTimeout(loading, remoteMs, () => new Error(`not loaded within ${remoteMs} ms`));
        const component = (loaded as { default?: unknown } | null)?.default;
        if (typeof component !== 'function') throw new Error('not a component');
        preloaded.set(id, { status: 'ready', Component: component as SlotComponent });
        slots[id] = manifestUrl;
      } catch (error) {
        problems.push(`${id}: ${messageOf(error)}`);
      }
    }),
  );
  return { preloaded, slots };
}

/**
 * The remotes that threw while rendering, even where React recovered (as the browser counts it),
 * once per remote and message: told apart from the shell's by where each remote's server code runs
 * from (`sourceOf`).
 */
export function remoteFailures(slots: Record<string, string>, sourceOf: RenderRequest['sourceOf']) {
  const bases: RemoteBases = {};
  for (const [id, manifestUrl] of Object.entries(slots)) {
    const source = sourceOf?.(manifestUrl);
    if (source) bases[id.split('/')[0] as RemoteName] = source.endsWith('/') ? source : `${source}/`;
  }
  const failures = new Map<string, ServerFailure>();
  return {
    note(errors: PassError[]) {
      for (const { error, componentStack } of errors) {
        const owner = ownerOfError(error, bases, { componentStack });
        if (owner === 'shell') continue;
        const failure = { remote: owner, message: describeError(error) };
        failures.set(`${failure.remote}\0${failure.message}`, failure);
      }
    },
    list: (): ServerFailure[] => [...failures.values()],
  };
}
