import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from '../exposes.js';
import { PAGE_LIST, PAGES, pagesOf } from './pages.js';
import { REMOTE_NAMES, REMOTES, SHELL, SINGLE_BUNDLE_PORT } from './remotes.js';

/** The table as plain data, for the build preset, the e2e suite, the bench and the scripts (`.mjs`). */
const platformData = () => ({
  shell: SHELL,
  singleBundlePort: SINGLE_BUNDLE_PORT,
  remotes: REMOTES,
  pages: PAGE_LIST.map(({ key, path, remote, module, header, footer }) => ({
    key,
    path,
    remote,
    module,
    header,
    footer,
  })),
});

/** Every module `file` loads, itself included, following relative imports (types only are left out: they are not loaded). */
function loadedModules(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(/^(?:import|export) (?!type\b)[^;]*?from '([^']+)'/gm)) {
    const target = specifier!.startsWith('.') ? resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')) : specifier!;
    if (target.startsWith('/')) loadedModules(target, seen);
    else seen.add(target);
  }
  return seen;
}

describe('the platform table', () => {
  it("loads no shared singleton: the shell's first chunk reads it before they are negotiated", () => {
    const modules = [...loadedModules(resolve(import.meta.dirname, 'index.ts'))];
    expect(modules.filter((m) => !m.startsWith('/'))).toEqual([]);
  });

  it('is what platform.json says (regenerate it with `pnpm --filter @marketplace/shared test -u`)', async () => {
    await expect(`${JSON.stringify(platformData(), null, 2)}\n`).toMatchFileSnapshot('../../platform.json');
  });

  it("names each page's calls for a location, with the keys its components read them under", () => {
    const keys = (page: (typeof PAGE_LIST)[number], pathname: string, search = '') =>
      page.calls({ pathname, search }).map((call) => call.queryKey);
    expect(keys(PAGES.home, '/')).toEqual([['getEvents', { limit: 50 }]]);
    // Decoded as the router's useParams gives them, so the key is the one the page's query uses.
    expect(keys(PAGES.event, '/event/a%20b/')).toEqual([['getEvent', { eventIdentifier: 'a b' }]]);
    expect(keys(PAGES.creator, '/user/mia')).toEqual([['getProfile', { profileName: 'mia' }]]);
    expect(keys(PAGES.eventOrder, '/eventorder/ord-1', '?sharingId=s1')).toEqual([
      ['getEventOrderDetails', { orderId: 'ord-1', sharingId: 's1' }],
    ]);
    expect(keys(PAGES.eventOrder, '/eventorder/ord-1')).toEqual([
      ['getEventOrderDetails', { orderId: 'ord-1', sharingId: undefined }],
    ]);
    // A malformed escape is the path as written, not a failure.
    expect(keys(PAGES.event, '/event/%E0%A4%A')).toEqual([['getEvent', { eventIdentifier: '%E0%A4%A' }]]);
    expect(keys(PAGES.faq, '/faq')).toEqual([]);
    expect(keys(PAGES.cart, '/cart')).toEqual([]);
    expect(keys(PAGES.receipt, '/receipt/P-7K2M9Q4X')).toEqual([['getPurchase', { purchaseNumber: 'P-7K2M9Q4X' }]]);
    expect(keys(PAGES.purchases, '/user/purchases')).toEqual([['getPurchases']]);
    expect(keys(PAGES.sales, '/user/sales')).toEqual([['getSales']]);
  });

  it('builds each page link, encoding its parameters', () => {
    expect(PAGES.home.href()).toBe('/');
    expect(PAGES.eventOrder.href({ orderId: 'ord 1/2' })).toBe('/eventorder/ord%201%2F2');
    expect(PAGES.event.href({ eventIdentifier: 'summer-jazz-night-2026' })).toBe('/event/summer-jazz-night-2026');
  });

  it('gives every page a distinct path, a distinct port to every app, and a legal page to each legal document', () => {
    const paths = PAGE_LIST.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    const ports = [SHELL.devPort, SINGLE_BUNDLE_PORT, ...REMOTE_NAMES.map((r) => REMOTES[r].devPort)];
    expect(new Set(ports).size).toBe(ports.length);
    for (const document of LEGAL_DOCUMENTS) expect(paths).toContain(`/legal/${document}`);
  });

  it('gives a page whose path contains /receipt no footer (SPEC.md section 2)', () => {
    const receipts = PAGE_LIST.filter((p) => p.path.includes('/receipt'));
    expect(receipts.map((p) => p.key)).toContain('receipt');
    for (const page of receipts) expect(page.footer).toBe('none');
  });

  it('hands each page its own remote, module and props', () => {
    const slots = PAGE_LIST.map((p) =>
      p.slot<{ remote: string; module: string; props: unknown }>((remote, module, props) => ({
        remote,
        module,
        props,
      })),
    );
    expect(slots).toContainEqual({ remote: 'account', module: 'LegalPage', props: { document: 'privacy-policy' } });
    expect(pagesOf('eventOrder').map((p) => p.key)).toEqual(['eventOrder']);
    for (const [key, page] of Object.entries(PAGES)) expect(page.key).toBe(key);
  });
});
