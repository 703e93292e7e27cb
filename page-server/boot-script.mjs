// The one inline script of the shell's page: while the page is still being parsed, it reads the
// composition its server wrote into it (page-composition.mjs) and adds preload hints for the
// header's entry and chunks and for the route's remote, so they download next to main.js rather
// than after it. A page that arrived with its content (renderDocument in shell/src/server/document.ts)
// carries main.js unstarted: the script starts it, with the hints, once the page has painted, so
// that on a slow line the page's pictures do not share the bytes and the main thread with code
// that changes nothing on the screen; until the app has taken the page over, it holds a press on a
// button or a form sent, and does it again then, after telling the app what was typed meanwhile. It is fixed text, allowed by its hash in the
// page's policy (csp.mjs): no 'unsafe-inline'. It only hints, starts and holds: main.js loads the
// remotes (shell/src/remotes/federation.ts), and a hint that turns out unused costs one download,
// never a wrong page.
import { createHash } from 'node:crypto';
import { chosenPointer, cohortIn, cohortValue, cookieIn, PLATFORM_COOKIES } from '@marketplace/shared/node/choice';
import { AFTER_PAINT_SCRIPT_TYPE, PAGE_STARTED_EVENT } from '@marketplace/shared/node/handover';
import { COMPOSITION_ID, PLATFORM } from '@marketplace/shared/node/platform';

/**
 * When a rendered page's script starts at the latest (ms from navigation) if its pictures have not
 * all painted by then: 2.5 s, the bound of a largest paint that counts as good.
 */
export const START_AT_LATEST_MS = 2500;

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
  var placeholders = function (attribute) {
    return Array.prototype.map.call(document.querySelectorAll('script[type="${AFTER_PAINT_SCRIPT_TYPE}"][' + attribute + ']'), function (placeholder) {
      return placeholder.getAttribute(attribute);
    });
  };
  // A rendered page's scripts to start after its paint, and the shell's chunks they load at once.
  var later = placeholders('data-src');
  var laterHints = placeholders('data-hint');
  var hrefs = [];
  try {
    var c = JSON.parse(document.getElementById('${COMPOSITION_ID}').textContent);
    var pages = ${JSON.stringify(rankedPages())};
    var kept = cohortIn(document.cookie);
    if (kept === null) kept = cohortValue(localStorage.getItem(PLATFORM_COOKIES.cohort));
    var preload = function (remote, module) {
      var entry = c.discovery && c.discovery.remotes && c.discovery.remotes[remote];
      var pointer = chosenPointer(entry, kept);
      var url = pointer && c.config.discoveryUrl ? new URL(pointer.manifest, c.config.discoveryUrl).href : c.config.remotes[remote];
      var manifest = pointer && c.config.discoveryUrl ? c.discovery.manifests && c.discovery.manifests[pointer.manifest] : c.manifests[remote];
      if (!manifest) return;
      hrefs.push(new URL(manifest.metaData.remoteEntry.path + manifest.metaData.remoteEntry.name, url).href);
      manifest.exposes.filter(function (e) { return e.name === module; }).forEach(function (e) {
        e.assets.js.sync.forEach(function (file) { hrefs.push(new URL(file, url).href); });
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
  var hint = function (href, low) {
    var link = document.createElement('link');
    link.setAttribute('rel', 'preload');
    link.setAttribute('as', 'script');
    link.setAttribute('href', href);
    // In the mode main.js loads it in (CORS from another origin, so its errors carry their stack), or the browser fetches it twice.
    if (new URL(href, location.href).origin !== location.origin) link.setAttribute('crossorigin', 'anonymous');
    if (low) link.setAttribute('fetchpriority', 'low');
    document.head.appendChild(link);
  };
  // The first paint with content reported (a paint is on the screen when it is reported).
  var whenPainted = function (then) {
    if (performance.getEntriesByName('first-contentful-paint').length > 0) return then();
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      then();
    }).observe({ type: 'paint' });
  };
  // A page waiting for its script: each hint at once (the shell's chunks are hinted by the page
  // itself). A page that arrived with its content: main.js, the shell's chunks and the remotes'
  // download at low priority once its first content is on the screen (its pictures first on a
  // slow line), and main.js runs once its pictures are too (below).
  if (later.length === 0) return hrefs.forEach(function (href) { hint(href, false); });
  whenPainted(function () {
    later.concat(laterHints, hrefs).forEach(function (href) { hint(href, true); });
  });
  // Until the app has taken the page over (it says so: shell/src/remotes/pageStart.ts), a press
  // on one of its buttons and a form sent are held, and done again then, once each however often
  // pressed: neither is lost, and a form never goes out by the browser's own means (a log-in's
  // password in an address). Held, a press reaches nothing else of the page (React's listeners on
  // a part it has hydrated meanwhile would handle it a second time). A link is left to the
  // browser: without script it leads to its page, which its server renders.
  var held = [];
  var hold = function (event) {
    var target = event.type === 'submit' ? event.target : event.target.closest && event.target.closest('button, [role="button"]');
    if (!target || (event.type === 'click' && target.closest('a[href]'))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.some(function (h) { return h[0] === target; })) held.push([target, event.submitter || null]);
  };
  // The fields typed into until then, each with its last text: it is on the screen, but the app's
  // state, hydrated from the server's empty field, does not have it (and a render of the app's
  // meanwhile puts the state's text back on the screen).
  var typed = [];
  var noteTyped = function (event) {
    var field = event.target;
    if (!field || (field.tagName !== 'INPUT' && field.tagName !== 'TEXTAREA') || /^(checkbox|radio|file)$/.test(field.type)) return;
    for (var i = 0; i < typed.length; i++) if (typed[i][0] === field) return void (typed[i][1] = field.value);
    typed.push([field, field.value]);
  };
  var release = function () {
    document.removeEventListener('click', hold, true);
    document.removeEventListener('submit', hold, true);
    document.removeEventListener('input', noteTyped, true);
    var presses = held;
    held = [];
    return presses;
  };
  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);
  document.addEventListener('input', noteTyped, true);
  // Each field typed into tells the app its text as if typed now. The text goes to the page's
  // value first, through the property the app (React) watches, so that the app sees it as a
  // change.
  var handTyped = function (fields) {
    fields.forEach(function (entry) {
      var field = entry[0];
      var text = entry[1];
      if (!field.isConnected || text === field.defaultValue) return;
      try {
        // Where the visitor left the caret, unless a render put other text there meanwhile.
        var caret = document.activeElement === field && field.value === text ? [field.selectionStart, field.selectionEnd] : null;
        var proto = field.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
        field.value = field.defaultValue;
        Object.getOwnPropertyDescriptor(proto, 'value').set.call(field, text);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        if (caret && caret[0] !== null) field.setSelectionRange(caret[0], caret[1]);
      } catch (e) {
        // One that cannot be handed keeps neither the others nor the presses from it.
      }
    });
  };
  document.addEventListener('${PAGE_STARTED_EVENT}', function () {
    var presses = release();
    handTyped(typed);
    presses.forEach(function (h) {
      // One the app's first render replaced is gone with what it was pressed on.
      if (!h[0].isConnected) return;
      try {
        if (h[0].tagName !== 'FORM') h[0].dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
        else h[0].requestSubmit(h[1] && h[1].form === h[0] ? h[1] : null);
      } catch (e) {
        // One that cannot be done again does not keep the others from it.
      }
    });
  }, { once: true });
  var started = false;
  var start = function () {
    if (started) return;
    started = true;
    later.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      // Run in the page's order, as the deferred scripts they stand for would.
      script.async = false;
      // No app is coming: presses are the browser's again, and the held ones are dropped.
      script.onerror = release;
      document.head.appendChild(script);
    });
  };
  // Painted: the load event (the page's eager pictures are in), the pictures decoded (one decoded
  // off the main thread paints a frame or more after its load), the first paint with content
  // reported, then three frames begun: a frame is on the screen a frame or two after it began.
  var frames = function (n) {
    if (n === 0) setTimeout(start, 0);
    else requestAnimationFrame(function () { frames(n - 1); });
  };
  var afterPaint = function () {
    var shown = Array.prototype.filter.call(document.images, function (img) { return img.loading !== 'lazy' && img.decode; });
    Promise.all(shown.map(function (img) { return img.decode().catch(function () {}); })).then(function () {
      whenPainted(function () { frames(3); });
    });
  };
  if (document.readyState === 'complete') afterPaint();
  else addEventListener('load', afterPaint);
  // A picture that never arrives, or a tab in the background (it draws no frames), does not keep
  // the page from working: the script starts at the latest when a largest paint stops counting as
  // good. Rounded up: a browser drops a delay's fraction of a millisecond, which would start it early.
  setTimeout(start, Math.max(0, Math.ceil(${START_AT_LATEST_MS} - performance.now())));
})();`;
  return body;
}

/** The policy's source for the script: `'sha256-…'` of its exact text. */
export const bootScriptSource = () => `'sha256-${createHash('sha256').update(bootScript()).digest('base64')}'`;
