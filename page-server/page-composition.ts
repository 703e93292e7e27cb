// The shell's page, composed by its page server (serve-app, which then renders it; nginx passes
// pages to it): the runtime config, the release store's discovery document and each remote's
// manifest are written into the page (a data-only block, see index.html), so the browser starts
// on the remotes' code instead of fetching these one after another. The template is written in
// the syntax of server-side includes, which processIncludes fills; the page server is the only
// one that composes a page.
import { COMPOSITION_ID, PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';

/** What a server-side include gives when its source cannot be had (`<!--# config errmsg -->`). */
export const MISSING = 'null';
/**
 * How long the server waits for the store or a remote before leaving its part out (the browser
 * then fetches it, and a remote that is really down costs its slot only).
 */
export const COMPOSE_TIMEOUT_MS = 500;

/**
 * The JSON text of each composition block in a served page (a page has one): for the tests and
 * anything else that reads a composed page from outside.
 */
export const compositionBlocks = (html: string): string[] =>
  [...html.matchAll(new RegExp(`<script type="application/json" id="${COMPOSITION_ID}">(.*?)</script>`, 'gs'))].map(
    (m) => m[1] ?? '',
  );

/** The virtual paths the page includes. */
export const INCLUDES = {
  config: '/runtime-config.json',
  discovery: '/platform/discovery.json',
  manifest: (remote: string) => `/platform/manifests/${remote}.json`,
};

/**
 * Where the host's page takes its boot script: the build preset writes the built script there
 * (build-preset/boot-script.mjs), inline.
 */
export const BOOT_SCRIPT_MARKER = '<!-- boot script -->';

/**
 * The block index.html carries, with the includes its page server fills: the host's page (the
 * shell) gets everything, and its boot script after it (which hints its remotes' files from it,
 * and starts a rendered page's script once it has painted); a page without remotes (the single
 * bundle, a remote running alone) only its runtime config.
 */
export function compositionTemplate(host: boolean): string {
  const include = (path: string) => `<!--# include virtual="${path}" -->`;
  const manifests = Object.keys(PLATFORM.remotes).map((name) => `"${name}":${include(INCLUDES.manifest(name))}`);
  const parts = host
    ? `"config":${include(INCLUDES.config)},"discovery":${include(INCLUDES.discovery)},"manifests":{${manifests.join(',')}}`
    : `"config":${include(INCLUDES.config)}`;
  const block = `<!--# config errmsg="${MISSING}" --><script type="application/json" id="${COMPOSITION_ID}">{${parts}}</script>`;
  return host ? `${block}\n    ${BOOT_SCRIPT_MARKER}` : block;
}

/** JSON text that can sit inside a <script> element (`<` escaped: the same JSON). */
export const inScript = (text: string): string => text.replaceAll('<', '\\u003c');

/** A JSON document from another server, or null (down, slow, not 2xx, not JSON). */
async function fetchJson(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(COMPOSE_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return null;
    const text = await response.text();
    JSON.parse(text);
    return inScript(text.trim());
  } catch {
    return null;
  }
}

/** Resolves the page's includes from the environment. */
export function platformIncludes(env: NodeJS.ProcessEnv): (path: string) => Promise<string | null> {
  const config = runtimeConfigFromEnv(env);
  // Node loads its fetch implementation on first use: not while the first page waits.
  fetch('data:,').catch(() => undefined);
  return async (path) => {
    if (path === INCLUDES.config) return inScript(JSON.stringify(config));
    if (path === INCLUDES.discovery) return config.discoveryUrl ? fetchJson(config.discoveryUrl) : null;
    const url = Object.entries(config.remotes).find(([name]) => INCLUDES.manifest(name) === path)?.[1];
    return url ? fetchJson(url) : null;
  };
}

const DIRECTIVE = /<!--#\s*(config|include)\s+(errmsg|virtual)="([^"]*)"\s*-->/g;

/**
 * The template's `config errmsg` and `include virtual` (server-side includes' syntax), all
 * includes fetched at once.
 */
export async function processIncludes(
  html: string,
  include: (path: string) => Promise<string | null>,
): Promise<string> {
  const wanted = [...html.matchAll(DIRECTIVE)].filter((m) => m[1] === 'include').map((m) => m[3] ?? '');
  const results = new Map(await Promise.all(wanted.map(async (path) => [path, await include(path)] as const)));
  let errmsg = '[an error occurred while processing the directive]';
  return html.replace(DIRECTIVE, (_all, command: string, _attribute: string, value: string) => {
    if (command === 'config') {
      errmsg = value;
      return '';
    }
    return results.get(value) ?? errmsg;
  });
}
