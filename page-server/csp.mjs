// The Content-Security-Policy of a served page, from the same runtime config the page reads:
// exactly the origins in use, and no 'unsafe-eval'.
import { PLATFORM } from '@marketplace/shared/node/platform';
import { bootScriptSource } from './boot-script.mjs';

/** @param {string} url */
const originOf = (url) => new URL(url).origin;

/** @param {string[]} sources */
const list = (sources) => [...new Set(sources)].join(' ');

/**
 * Scripts from this origin and the remotes' origins, and the page's boot script by its hash; connections to the API, the files host, the
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
 */
export function contentSecurityPolicy(config) {
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
    // The shell page's one inline script, by its hash (boot-script.mjs); no 'unsafe-inline'.
    `script-src ${list(["'self'", bootScriptSource(), ...remotes])}`,
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
