// The one inline script of the shell's page: while the page is still being parsed, it reads the
// composition its server wrote into it (page-composition.mjs) and adds preload hints for the
// header's entry and chunks and for the route's remote, so they download next to main.js rather
// than after it. It is fixed text, allowed by its hash in the page's policy (csp.mjs): no
// 'unsafe-inline'. It only hints: main.js loads the remotes (shell/src/remotes/federation.ts),
// and a hint that turns out unused costs one download, never a wrong page.
import { createHash } from 'node:crypto';
import { chosenPointer, cohortIn, cohortValue, cookieIn, PLATFORM_COOKIES } from '@marketplace/shared/node/choice';
import { COMPOSITION_ID, PLATFORM } from '@marketplace/shared/node/platform';

/** The table's pages as [segments, remote, module], most specific first (as the router ranks them). */
function rankedPages() {
  const score = (/** @type {string[]} */ segments) =>
    segments.reduce((sum, s) => sum + (s.startsWith(':') ? 3 : 10), segments.length);
  return PLATFORM.pages
    .map((page) => [page.path === '/' ? [] : page.path.slice(1).split('/'), page.remote, page.module])
    .sort((a, b) => score(/** @type {string[]} */ (b[0])) - score(/** @type {string[]} */ (a[0])));
}

/**
 * The script's text. Which version of a remote it hints is the platform's one choice
 * (shared/node/choice.mjs, whose functions it carries as their own text: the kept cohort, the
 * canary or live pointer, else the configured manifest); which page, shared/src/platform/pageAt.ts.
 * boot-script.test.ts checks both against the shell's.
 */
export function bootScript() {
  const body = `(function () {
  var PLATFORM_COOKIES = ${JSON.stringify({ cohort: PLATFORM_COOKIES.cohort })};
  ${[cookieIn, cohortValue, cohortIn, chosenPointer].map(String).join('\n  ')}
  try {
    var c = JSON.parse(document.getElementById('${COMPOSITION_ID}').textContent);
    var pages = ${JSON.stringify(rankedPages())};
    var kept = cohortIn(document.cookie);
    if (kept === null) kept = cohortValue(localStorage.getItem(PLATFORM_COOKIES.cohort));
    // A page that arrived with its content has main.js lowered (renderDocument in shell/src/server.tsx): the hints follow it.
    var low = document.querySelector('script[src][fetchpriority="low"]') !== null;
    var hint = function (href) {
      var link = document.createElement('link');
      link.setAttribute('rel', 'preload');
      link.setAttribute('as', 'script');
      link.setAttribute('href', href);
      // In the mode main.js loads it in (CORS from another origin, so its errors carry their stack), or the browser fetches it twice.
      if (new URL(href, location.href).origin !== location.origin) link.setAttribute('crossorigin', 'anonymous');
      if (low) link.setAttribute('fetchpriority', 'low');
      document.head.appendChild(link);
    };
    var preload = function (remote, module) {
      var entry = c.discovery && c.discovery.remotes && c.discovery.remotes[remote];
      var pointer = chosenPointer(entry, kept);
      var url = pointer && c.config.discoveryUrl ? new URL(pointer.manifest, c.config.discoveryUrl).href : c.config.remotes[remote];
      var manifest = pointer && c.config.discoveryUrl ? c.discovery.manifests && c.discovery.manifests[pointer.manifest] : c.manifests[remote];
      if (!manifest) return;
      hint(new URL(manifest.metaData.remoteEntry.path + manifest.metaData.remoteEntry.name, url).href);
      manifest.exposes.filter(function (e) { return e.name === module; }).forEach(function (e) {
        e.assets.js.sync.forEach(function (file) { hint(new URL(file, url).href); });
      });
    };
    preload('header', 'Header');
    var path = location.pathname === '/' ? [] : location.pathname.replace(/^\\//, '').replace(/\\/$/, '').split('/');
    var page = pages.filter(function (p) {
      return p[0].length === path.length && p[0].every(function (s, i) { return s.charAt(0) === ':' ? path[i] !== '' : s.toLowerCase() === path[i].toLowerCase(); });
    })[0];
    if (page) preload(page[1], page[2]);
  } catch (e) {
    // Not composed (the development server), or no storage: main.js does without hints.
  }
})();`;
  return body;
}

/** The policy's source for the script: `'sha256-…'` of its exact text. */
export const bootScriptSource = () => `'sha256-${createHash('sha256').update(bootScript()).digest('base64')}'`;
