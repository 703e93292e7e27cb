// The app's page as served: composed on every request (page-composition.ts), rendered when the
// app has a server build (render-page.ts), else left to the browser; with the policy, an ETag,
// and no shared cache for a logged-in visitor's.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { processIncludes } from './page-composition.ts';
import { TYPES } from './static-files.mjs';

/**
 * Sends the app's page (its index.html, composed and maybe rendered).
 * @param {{
 *   csp: (page: string) => string,
 *   include: Parameters<typeof processIncludes>[1],
 *   renderer: ReturnType<typeof import('./render-page.ts').pageRenderer>,
 *   origin: () => string,
 * }} options `csp`: the policy of a page whose template is `page`; `origin`: the origin the page names as its own (publicOrigin, else the server's own address).
 */
export function pageSender({ csp, include, renderer, origin }) {
  /**
   * The page, rendered when this app renders on the server, else as composed for the browser to
   * render (also when rendering fails: a page, never an error).
   * @param {import('node:http').IncomingMessage} req @param {string} composed
   */
  async function rendered(req, composed) {
    // Unrendered, the page is the same for everyone.
    if (!renderer) return { status: 200, html: composed, personal: false, fallback: false };
    const url = req.url ?? '/';
    try {
      const page = await renderer.render({
        template: composed,
        url,
        cookie: req.headers.cookie ?? '',
        origin: origin(),
      });
      if (!page) {
        noteBusy(url);
        return { status: 200, html: composed, personal: false, fallback: true };
      }
      for (const problem of [...page.problems, ...(page.notes ?? [])]) console.warn(`[render] ${url}: ${problem}`);
      // A shell build from before `personal` existed: kept private, as a page not known to be shareable.
      return { status: page.status, html: page.body, personal: page.personal !== false, fallback: false };
    } catch (error) {
      console.error(`[render] ${url}: ${error instanceof Error ? error.stack : String(error)}; served unrendered`);
      return { status: 200, html: composed, personal: false, fallback: true };
    }
  }

  // Pages sent unrendered because every render slot was taken: said once a second, with their count.
  let busyPages = 0;
  /** @param {string} url */
  function noteBusy(url) {
    if (busyPages++ > 0) return;
    setTimeout(() => {
      console.warn(`[render] ${busyPages} page(s) left to the browser (the last ${url}): renders were at their limit`);
      busyPages = 0;
    }, 1000).unref();
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {string} file */
  async function sendPage(req, res, file) {
    const template = readFileSync(file, 'utf8');
    const { status, html, personal, fallback } = await rendered(req, await processIncludes(template, include));
    const body = Buffer.from(html);
    const headers = {
      'Content-Security-Policy': csp(template),
      'Content-Type': TYPES['.html'],
      // A logged-in visitor's page is theirs, with their data: no cache keeps it, not even theirs.
      'Cache-Control': personal ? 'private, no-store' : 'no-cache',
      // A page sent unrendered (renders at their limit, or failing) is not for nginx to keep in
      // place of the rendered one: it ignores Cache-Control (app.conf.template), not this.
      ...(fallback && { 'X-Accel-Expires': '0' }),
      ETag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
      Vary: renderer ? 'Accept-Encoding, Cookie' : 'Accept-Encoding',
    };
    if (status === 200 && req.headers['if-none-match'] === headers.ETag) {
      res.writeHead(304, headers).end();
      return;
    }
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const sent = gzip ? gzipSync(body) : body;
    res.writeHead(status, {
      ...headers,
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      'Content-Length': sent.length,
    });
    res.end(req.method === 'HEAD' ? undefined : sent);
  }

  return sendPage;
}
