// The Content-Security-Policy of a served page, from the same runtime config the page reads:
// exactly the origins in use, and no 'unsafe-eval'.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';

/** @param {string} url */
const originOf = (url) => new URL(url).origin;

/** @param {string[]} sources */
const list = (sources) => [...new Set(sources)].join(' ');

/**
 * The policy's sources for the inline scripts of a page (its boot script, which the build preset
 * writes into the shell's page): `'sha256-…'` of each one's exact text. Data blocks
 * (`type="application/json"`) and placeholders of another type are not run, so not listed.
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScriptSources(html) {
  return [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)]
    .filter(([, attributes = '', text = '']) => text !== '' && !/\ssrc\s*=/i.test(attributes) && runs(attributes))
    .map(([, , text = '']) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
}

/** Whether a script element with these attributes is run: no type, a JavaScript one, or a module. @param {string} attributes */
function runs(attributes) {
  const type = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
  if (!type) return true;
  const value = (type[1] ?? type[2] ?? type[3] ?? '').trim().toLowerCase();
  return value === '' || value === 'module' || /^(text|application)\/(x-)?(java|ecma)script$/.test(value);
}

/** The page an app's build serves (its index.html), or '' when it has none. @param {string} dist */
export const builtPage = (dist) =>
  existsSync(join(dist, 'index.html')) ? readFileSync(join(dist, 'index.html'), 'utf8') : '';

/**
 * Scripts from this origin and the remotes' origins, and the page's inline scripts by their hash
 * (`page`: the app's built page, builtPage); connections to the API, the files host, the
 * live broker and the remotes (their manifests); images from the files host; video from the files
 * host and blob: (hls.js feeds the player through Media Source); blob: workers (mqtt, hls.js).
 * Styles allow inline: styled-components writes <style> elements at run time.
 *
 * The release store's origin counts as a remote's when the config names a discovery document, and
 * the remotes' development servers on loopback when the deployment lets developers load their own
 * build (allowLocalRemotes): those origins only, from the platform table, never another.
 *
 * Uploads may go to an object store's origin (uploadOrigin): connections only, never scripts.
 *
 * @param {{ apiOrigin: string, filesOrigin: string, uploadOrigin?: string, liveUrl: string, remotes: Record<string, string>, discoveryUrl?: string, allowLocalRemotes?: boolean }} config
 * @param {string} [page]
 */
export function contentSecurityPolicy(config, page = '') {
  const devPorts = config.allowLocalRemotes
    ? Object.values(PLATFORM.remotes).map((/** @type {{ devPort: number }} */ r) => r.devPort)
    : [];
  const remotes = [
    ...Object.values(config.remotes).map(originOf),
    ...(config.discoveryUrl ? [originOf(config.discoveryUrl)] : []),
    ...devPorts.map((port) => `http://localhost:${port}`),
  ];
  // The development server's live-reload socket.
  const devSockets = devPorts.map((port) => `ws://localhost:${port}`);
  const live = new URL(config.liveUrl);
  const liveOrigin = `${live.protocol}//${live.host}`;
  const api = originOf(config.apiOrigin);
  const files = originOf(config.filesOrigin);
  const uploads = config.uploadOrigin ? [originOf(config.uploadOrigin)] : [];
  return [
    "default-src 'self'",
    // The shell page's one inline script, by its hash; no 'unsafe-inline'.
    `script-src ${list(["'self'", ...inlineScriptSources(page), ...remotes])}`,
    `connect-src ${list(["'self'", api, files, ...uploads, liveOrigin, ...remotes, ...devSockets])}`,
    `img-src ${list(["'self'", 'data:', files, api])}`,
    `media-src ${list(["'self'", 'blob:', files])}`,
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
