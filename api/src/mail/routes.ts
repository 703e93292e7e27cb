import type { Context, Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MailConfig } from '../config.js';
import type { AppEnv } from '../http/env.js';
import { mailboxFiles, readMailboxFile } from './devMailbox.js';
import { readMail } from './mime.js';
import { escapeHtml } from './templates.js';

/** Escaped text with its web addresses made links, so a reset link opens from the mailbox. */
const linked = (escaped: string) => escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:sans-serif;max-width:60rem;margin:2rem auto">${body}</body></html>`;

/**
 * Whether a request comes from a browser on this machine itself, through no proxy: the mailbox
 * holds password reset links, and a server started without SMTP_URL (a preview, a staging host)
 * must not hand them to whoever asks over the network or through a gateway (which says so in
 * X-Forwarded-For or Forwarded, and whose own address is a loopback one).
 */
function fromThisMachine(c: Context<AppEnv>): boolean {
  const address = getConnInfo(c).remote.address ?? '';
  const proxied = c.req.header('x-forwarded-for') !== undefined || c.req.header('forwarded') !== undefined;
  return !proxied && /^(127\.|::1$|::ffff:127\.)/.test(address);
}

/**
 * The dev mailbox's pages (MAIL unset, no SMTP_URL: `npm start`): /internal/mailbox lists what
 * the API sent, newest first; /internal/mailbox/<file> shows one (its text, and the raw message at
 * ?raw=1). Only to a browser on the API's own machine (`fromThisMachine`); a production start has
 * no mailbox (config.ts refuses one without SMTP_URL or MAIL=off).
 */
export function registerMailboxRoutes(app: Hono<AppEnv>, mail: MailConfig): void {
  if (mail.mode !== 'dev') return;
  const dir = mail.mailboxDir;
  app.use('/internal/mailbox/*', async (c, next) => (fromThisMachine(c) ? next() : c.text('Not found', 404)));
  app.use('/internal/mailbox', async (c, next) => (fromThisMachine(c) ? next() : c.text('Not found', 404)));
  app.get('/internal/mailbox', async (c) => {
    const rows: string[] = [];
    for (const name of (await mailboxFiles(dir)).slice(0, 200)) {
      const raw = await readMailboxFile(dir, name);
      if (raw === null) continue;
      const m = readMail(raw);
      rows.push(
        `<tr><td>${escapeHtml(m.date)}</td><td>${escapeHtml(m.to)}</td>` +
          `<td><a href="/internal/mailbox/${name}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
      );
    }
    return c.html(
      page(
        'Dev mailbox',
        `<h1>Dev mailbox</h1><p>Mail the API sent, kept in <code>${escapeHtml(dir)}</code>.</p>` +
          (rows.length
            ? `<table cellpadding="6"><tr><th align="left">Date</th><th align="left">To</th><th align="left">Subject</th></tr>${rows.join('')}</table>`
            : '<p>No mail yet.</p>'),
      ),
    );
  });
  app.get('/internal/mailbox/:name', async (c) => {
    const name = c.req.param('name');
    const raw = await readMailboxFile(dir, name);
    if (raw === null) return c.text('No such mail', 404);
    if (c.req.query('raw') === '1') return c.body(raw, 200, { 'content-type': 'message/rfc822' });
    const m = readMail(raw);
    return c.html(
      page(
        m.subject,
        `<p><a href="/internal/mailbox">All mail</a> · <a href="?raw=1">Raw</a></p>` +
          `<h1>${escapeHtml(m.subject)}</h1><p>From ${escapeHtml(m.from)} to ${escapeHtml(m.to)}, ${escapeHtml(m.date)}</p>` +
          `<pre style="white-space:pre-wrap">${linked(escapeHtml(m.text))}</pre>`,
      ),
    );
  });
}
