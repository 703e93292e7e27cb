import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositionBlocks, compositionTemplate, processIncludes } from './page-composition.ts';
import { freePort } from '@marketplace/shared/node/ports';
import { serveApp } from './serve.ts';

// The shell's page as its page server composes it (serve-app; nginx passes pages to it, see
// nginx.test.ts), from a release store's discovery document and four remotes, one of each kind
// (answering, failing, too slow, down).
const dir = mkdtempSync(join(tmpdir(), 'composition-test-'));
// nginx's workers run as another user when started as root: they must be able to read the build.
chmodSync(dir, 0o755);
const dist = join(dir, 'dist');

/** What the sources answer now; a test changes it to release or deploy. */
const sources = {
  header: { id: 'header', name: 'header', metaData: { buildInfo: { buildVersion: 'one' } } } as object,
  discovery: {
    remotes: { media: { live: { version: 'aaaaaaaaaaaa', manifest: 'media/aaaaaaaaaaaa/mf-manifest.json' } } },
    manifests: { 'media/aaaaaaaaaaaa/mf-manifest.json': { id: 'media', note: '</script><script>alert(1)</script>' } },
  } as object,
};
let upstream: Server;
let closedPort = 0;
const servers: { stop(): Promise<void> }[] = [];
let page = '';

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === '/header/mf-manifest.json')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sources.header));
    else if (req.url === '/discovery.json')
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(sources.discovery).replaceAll('<', '\\u003c'));
    else if (req.url === '/slow/mf-manifest.json')
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"slow"}'), 3000);
    else res.writeHead(500).end('broken');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  closedPort = await freePort();
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'index.html'), `<!doctype html><title>shell</title>${compositionTemplate(true)}`);
  const env = {
    API_ORIGIN: 'http://localhost:4000',
    HEADER_MANIFEST_URL: `${origin}/header/mf-manifest.json`,
    MEDIA_MANIFEST_URL: `${origin}/media/mf-manifest.json`,
    EVENT_ORDER_MANIFEST_URL: `${origin}/slow/mf-manifest.json`,
    ACCOUNT_MANIFEST_URL: `http://127.0.0.1:${closedPort}/mf-manifest.json`,
    DISCOVERY_URL: `${origin}/discovery.json`,
  };
  const servePort = await freePort();
  const served = await serveApp({ dir: dist, port: servePort, env, log: false });
  servers.push({ stop: () => new Promise<void>((resolve) => served.close(() => resolve())) });
  page = `http://127.0.0.1:${servePort}/event/city-marathon-2026`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

interface Composed {
  config: { remotes: Record<string, string>; discoveryUrl: string };
  discovery: typeof sources.discovery;
  manifests: Record<string, unknown>;
}

/** The page's data block, parsed; the page must hold no directive and exactly one block. */
async function composed(url: string): Promise<{ html: string; block: Composed }> {
  const html = await (await fetch(url)).text();
  expect(html).not.toContain('<!--#');
  const blocks = compositionBlocks(html);
  expect(blocks).toHaveLength(1);
  return { html, block: JSON.parse(blocks[0] ?? '') as Composed };
}

describe('the page composed by its server', () => {
  it('carries the runtime config, the discovery document and each remote manifest it could get; null for a remote that fails, is too slow or is down', async () => {
    const { html, block } = await composed(page);
    expect(block.config.remotes.header).toMatch(/\/header\/mf-manifest\.json$/);
    expect(block.config.discoveryUrl).toMatch(/\/discovery\.json$/);
    expect(block.discovery).toEqual(sources.discovery);
    // The store's document is written with `<` escaped: it cannot close the block.
    expect(html).not.toContain('</script><script>alert');
    expect(block.manifests).toEqual({ header: sources.header, media: null, eventOrder: null, account: null });
  });

  it('is composed again on every load: a release or a deploy shows on the next one, never a stale copy', async () => {
    const before = { ...sources };
    const released = { id: 'media', version: 'bbbbbbbbbbbb' };
    sources.discovery = {
      remotes: { media: { live: { version: 'bbbbbbbbbbbb', manifest: 'media/bbbbbbbbbbbb/mf-manifest.json' } } },
      manifests: { 'media/bbbbbbbbbbbb/mf-manifest.json': released },
    };
    sources.header = { id: 'header', name: 'header', metaData: { buildInfo: { buildVersion: 'two' } } };
    try {
      const { block } = await composed(page);
      expect(block.discovery).toEqual(sources.discovery);
      expect(block.manifests.header).toEqual(sources.header);
    } finally {
      Object.assign(sources, before);
    }
  });
});

describe('processIncludes', () => {
  it('fills each include, and a failed one with the configured errmsg (the SSI syntax the template is written in)', async () => {
    const html = '<!--# config errmsg="null" -->[<!--# include virtual="/a" -->,<!--# include virtual="/b" -->]';
    expect(await processIncludes(html, async (path) => (path === '/a' ? '1' : null))).toBe('[1,null]');
  });
});
