// The platform's one version choice (shared/node/choice.mjs, chooseVersions), typed for the
// shell's remotes: what the browser loads (discovery.ts), what the page's server renders with
// (requestVersions.ts), what a rollback switches to (rollbacks.ts) and what the page's boot
// script hints (src/boot) all come from chooseRemotes.
import type { RuntimeConfig } from '@marketplace/shared';
import {
  chooseVersions,
  isDiscoveryDocument,
  localManifestAt,
  REMOTE_NAMES,
  REMOTES,
  type Composition,
  type RemoteName,
} from '@marketplace/shared/platform';

/** A released version of a remote in the discovery document (releases/store.mjs writes it). */
interface Pointer {
  version: string;
  /** The version's manifest, relative to the discovery document. */
  manifest: string;
}

export interface DiscoveryDocument {
  remotes: Partial<
    Record<
      RemoteName,
      {
        live?: Pointer;
        canary?: Pointer & { percent: number };
        versions?: string[];
        /** Versions taken away by a rollback: a page running one leaves it at its next navigation. */
        rolledBack?: string[];
      }
    >
  >;
  /** The manifests of the live and canary versions, by their path (written with the pointers). */
  manifests?: Record<string, unknown>;
}

export const isDocument = (value: unknown): value is DiscoveryDocument => isDiscoveryDocument(value);

export type Overrides = Partial<Record<RemoteName, string>>;

/**
 * A remote's development server on this machine (`pnpm --filter mf-header dev`): its port is the
 * platform table's, never taken from the address, so a link can only point a tab at loopback.
 */
export const localManifest = (remote: RemoteName): string => localManifestAt(REMOTES[remote].devPort);

const LOCAL_MANIFESTS = Object.fromEntries(REMOTE_NAMES.map((name) => [name, localManifest(name)]));

/** The part of the runtime config the choice reads. */
export type ChoiceConfig = Pick<
  RuntimeConfig,
  'remotes' | 'discoveryUrl' | 'allowVersionOverride' | 'allowLocalRemotes'
>;

export interface RemoteChoice {
  /** Each remote's manifest URL. */
  remotes: Record<RemoteName, string>;
  /** The tester's versions that apply, and those refused (not allowed here, not in the store). */
  used: Overrides;
  refused: Overrides;
  /** Remotes whose version the page cannot know yet: the browser decides them. */
  undecided: Set<RemoteName>;
}

/** Whether the deployment lets testers or developers choose versions at all. */
export const allowsOverrides = (config: ChoiceConfig): boolean =>
  Boolean(config.allowVersionOverride || config.allowLocalRemotes);

/** The versions of every remote for a browser in `cohort` (null: none drawn yet) asking for `overrides`. */
export function chooseRemotes(
  config: ChoiceConfig,
  discovery: unknown,
  cohort: number | null,
  overrides: Overrides,
): RemoteChoice {
  const choice = chooseVersions({
    config,
    discovery,
    cohort,
    overrides: overrides as Record<string, string>,
    localManifests: LOCAL_MANIFESTS,
  });
  return {
    remotes: choice.manifests as Record<RemoteName, string>,
    used: choice.used as Overrides,
    refused: choice.refused as Overrides,
    undecided: new Set(choice.undecided as RemoteName[]),
  };
}

/**
 * The manifests the page already holds, by manifest URL: each configured remote's as composed,
 * and those the discovery document carries for the versions it points at.
 */
export function knownManifests(
  config: ChoiceConfig,
  composed: Pick<Composition, 'manifests'> | null,
  doc: DiscoveryDocument | null,
): Map<string, unknown> {
  const manifests = new Map<string, unknown>();
  for (const name of REMOTE_NAMES)
    if (composed?.manifests[name]) manifests.set(config.remotes[name], composed.manifests[name]);
  if (doc && config.discoveryUrl)
    for (const [path, manifest] of Object.entries(doc.manifests ?? {}))
      manifests.set(new URL(path, config.discoveryUrl).href, manifest);
  return manifests;
}
