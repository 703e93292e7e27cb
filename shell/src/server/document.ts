import { AFTER_PAINT_SCRIPT_TYPE, documentTitle, type PageHead, SITE_NAME, stateScript } from '@marketplace/shared';
import type { DocumentRequest, HostRenderer } from './contract.js';
import { renderPage } from './renderPage.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * What the page says it is, to people and to machines: its title, description, canonical
 * address, and the Open Graph and Twitter card tags a shared link's preview is made of.
 */
export function headTags(head: PageHead, canonicalUrl: string): string {
  const title = escapeHtml(documentTitle(head.title));
  const description = escapeHtml(head.description);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${escapeHtml(canonicalUrl)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(SITE_NAME)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(canonicalUrl)}" />`,
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ];
  if (head.image)
    tags.push(
      `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
      `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`,
    );
  return tags.join('\n    ');
}

/**
 * The template asks for main.js and the boot chunks first (build-preset/boot-hints.mjs): an
 * empty page paints nothing until they run. A page that arrived with its content paints without
 * them, and on a slow line they would take the bytes and the main thread its pictures need: its
 * main.js (`data-src`) and the boot chunks' hints (`data-hint`) are left to the page's boot
 * script, which has them downloaded once the page's first content is on the screen and runs
 * main.js once its pictures are too (src/boot). A script of an unknown type is
 * neither fetched nor run.
 */
export const scriptsAfterContent = (template: string): string =>
  template
    .replace(
      /<link rel="preload" as="script" href="([^"]+)"[^>]*>/g,
      `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-hint="$1"></script>`,
    )
    .replace(
      /<script defer src="([^"]+)"[^>]*><\/script>/g,
      `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-src="$1"></script>`,
    );

/**
 * The whole page: the template with the rendered HTML in its root, the state the browser
 * hydrates it with after it, and the head and styles of what was rendered. The template's own
 * title and description are replaced, not repeated.
 */
export const renderDocument: HostRenderer['renderDocument'] = async (request: DocumentRequest) => {
  const page = await renderPage(request);
  const { pathname } = new URL(request.url, 'http://page');
  const head = headTags(page.head, `${request.origin}${pathname}`);
  const template = page.hasContent ? scriptsAfterContent(request.template) : request.template;
  const body = template
    .replace(/<title>[^<]*<\/title>\s*/, '')
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace('</head>', () => `  ${head}\n    ${page.styles}\n  </head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>\n    ${stateScript(page.state)}`);
  // A logged-in visitor's page is theirs (their header, their data): no shared cache may keep it.
  return { status: page.status, body, problems: page.problems, notes: page.notes, personal: page.personal };
};
