import { messageOf } from '../../node/errors.mjs';
import { parseRuntimeConfig, type RuntimeConfig } from '../config/parse.js';
import { REMOTE_NAMES, type RemoteName } from './remotes.js';

/**
 * What the shell's server composes into the page it serves (build-preset/index.html, filled by
 * serve-app and by nginx's server-side includes alike), so that the browser does not fetch it
 * first, one request after another: the runtime config, the release store's discovery document
 * (with the manifests of the versions it points at) and each configured remote's manifest.
 * A part the server could not get is `null`; the page then fetches it as it would without.
 */
export interface Composition {
  config: unknown;
  discovery: unknown;
  /** Each remote's manifest at its configured URL (the runtime config's `remotes`). */
  manifests: Partial<Record<RemoteName, unknown>>;
}

/** The id of the page's data-only block (`<script type="application/json">`: never executed). */
export const COMPOSITION_ELEMENT_ID = 'platform-composition';

let read: Composition | null | undefined;

/**
 * The composition in the page, read once; null when the page has none (the development server
 * serves the template unfilled) or it is not valid JSON.
 */
export function pageComposition(
  doc: Pick<Document, 'getElementById'> | undefined = globalThis.document,
): Composition | null {
  if (read !== undefined) return read;
  read = null;
  const text = doc?.getElementById(COMPOSITION_ELEMENT_ID)?.textContent;
  if (!text) return read;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object') {
      const { config = null, discovery = null, manifests } = value as Partial<Composition>;
      const byRemote = manifests && typeof manifests === 'object' ? manifests : {};
      read = {
        config,
        discovery,
        manifests: Object.fromEntries(
          REMOTE_NAMES.filter((name) => isObject(byRemote[name])).map((name) => [name, byRemote[name]]),
        ),
      };
    }
  } catch {
    // Not filled by the server (or cut short): the page fetches what it needs instead.
  }
  return read;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The runtime config composed into the page, validated; null when there is none or it is not valid (it is then fetched). */
export function composedRuntimeConfig(doc?: Pick<Document, 'getElementById'>): RuntimeConfig | null {
  const inline = pageComposition(doc)?.config;
  if (!inline) return null;
  try {
    return parseRuntimeConfig(inline);
  } catch (error) {
    console.warn(`[platform] the page's runtime config is not valid, fetching it: ${messageOf(error)}`);
    return null;
  }
}

/** Forgets what was read (tests build several pages). */
export function resetPageComposition(): void {
  read = undefined;
}
