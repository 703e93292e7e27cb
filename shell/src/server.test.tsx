import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEST_CONFIG } from '@marketplace/shared/testing';
import type { LoadServerModule, renderPage as RenderPage } from './server.js';

// The build defines it (build-preset/server.mjs); the singletons' versions do not matter here.
vi.stubGlobal('SINGLETON_VERSIONS', {});
const { renderPage } = (await import('./server.js')) as { renderPage: typeof RenderPage };

// A remote's server build as the page server runs it: code in a file of its own folder, so its
// frames name that folder (page-server/render-page.mjs hands it over as `sourceOf`).
const folder = mkdtempSync(join(tmpdir(), 'server-failures-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function remoteBuild(name: string, source: string): unknown {
  mkdirSync(join(folder, name, 'server'), { recursive: true });
  const file = join(folder, name, 'server', 'expose.cjs');
  writeFileSync(file, source);
  return createRequire(import.meta.url)(file);
}

describe("the page's server", () => {
  it('puts each remote that threw while it rendered the page into the page, by remote and once, not the shell', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const header = remoteBuild(
      'header',
      'module.exports = { default: function HeaderBar() { throw new Error("flaky header"); } };',
    );
    const account = remoteBuild(
      'account',
      'module.exports = { default: function LoginPage() { return "log in here"; } };',
    );
    const load: LoadServerModule = async ({ remote }) => (remote === 'header' ? header : account);
    const page = await renderPage({
      url: '/user/login',
      cookie: '',
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load,
      sourceOf: (manifestUrl) => join(folder, manifestUrl.includes('header') ? 'header' : 'account'),
      budgets: { dataMs: 50 },
    });
    expect(page.html).toContain('log in here');
    expect(page.failures).toEqual([{ remote: 'header', message: 'Error: flaky header' }]);
    expect(page.state.failures).toEqual(page.failures);
    // Told by where the code runs from: without it, no remote is named.
    const unknown = await renderPage({
      url: '/user/login',
      cookie: '',
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load,
      budgets: { dataMs: 50 },
    });
    expect(unknown.problems.join()).toContain('flaky header');
    expect(unknown.failures).toEqual([]);
    expect(unknown.state.failures).toBeUndefined();
  });
});
