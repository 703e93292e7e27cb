// Which files main.js loads first, so the page can ask for them while it is still being parsed:
// the header's entry and chunks and the route's remote's, in the versions main.js will take (the
// platform's one choice) from the manifests composed into the page.
import platform from '@marketplace/shared/platform.json';
import {
  overridesIn,
  pageComposition,
  REMOTE_NAMES,
  routeMatcher,
  type RemoteName,
} from '@marketplace/shared/platform';
import { allowsOverrides, chooseRemotes, isDocument, knownManifests, type ChoiceConfig } from '../remotes/choice.js';
import { keptCohort } from '../remotes/cohort.js';
import { keptOverrides } from '../remotes/overrides.js';

/** The part of a remote's mf-manifest.json the hints read. */
interface Manifest {
  metaData: { remoteEntry: { path: string; name: string } };
  exposes: { name: string; assets: { js: { sync: string[] } } }[];
}

const pageAt = routeMatcher(platform.pages);

/** The tab's storage, or none where the browser refuses it (the header and the route are hinted all the same). */
function tabStorage(): Pick<Storage, 'getItem'> {
  try {
    return sessionStorage;
  } catch {
    return { getItem: () => null };
  }
}

/**
 * The URLs of the files main.js loads first on this page; none when the page carries no
 * composition (the development server) or what it carries is not as expected: main.js then
 * does without hints, which only ever cost a download, never a wrong page.
 */
export function remoteFiles(): string[] {
  try {
    const composed = pageComposition();
    const config = composed?.config as ChoiceConfig | undefined;
    if (!composed || !config) return [];
    const doc = config.discoveryUrl && isDocument(composed.discovery) ? composed.discovery : null;
    // The versions main.js will take: the kept cohort and a tester's versions (read, not kept: main.js keeps them).
    const overrides = allowsOverrides(config)
      ? overridesIn(location.search, keptOverrides(tabStorage()), REMOTE_NAMES)
      : {};
    const { remotes } = chooseRemotes(config, doc, keptCohort(), overrides);
    const manifests = knownManifests(config, composed, doc);
    const filesOf = (remote: RemoteName, module: string): string[] => {
      const url = remotes[remote];
      const manifest = manifests.get(url) as Manifest | undefined;
      if (!manifest) return [];
      const { path, name } = manifest.metaData.remoteEntry;
      const chunks = manifest.exposes.filter((e) => e.name === module).flatMap((e) => e.assets.js.sync);
      return [path + name, ...chunks].map((file) => new URL(file, url).href);
    };
    const page = pageAt(location.pathname);
    return [...filesOf('header', 'Header'), ...(page ? filesOf(page.remote as RemoteName, page.module) : [])];
  } catch {
    return [];
  }
}

/** Asks the browser for a script now (`low`: after what the page itself needs). */
export function hint(href: string, low: boolean): void {
  const link = document.createElement('link');
  link.setAttribute('rel', 'preload');
  link.setAttribute('as', 'script');
  link.setAttribute('href', href);
  // In the mode main.js loads it in (CORS from another origin, so its errors carry their stack), or the browser fetches it twice.
  if (new URL(href, location.href).origin !== location.origin) link.setAttribute('crossorigin', 'anonymous');
  if (low) link.setAttribute('fetchpriority', 'low');
  document.head.appendChild(link);
}
