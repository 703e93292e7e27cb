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

describe('the platform table', () => {
  it('is what platform.json says (regenerate it with `pnpm --filter @marketplace/shared test -u`)', async () => {
    await expect(`${JSON.stringify(platformData(), null, 2)}\n`).toMatchFileSnapshot('../../platform.json');
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
