import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCodeTrust } from './render-page.mjs';
import { serverBuilds } from './server-builds.mjs';

// Issue 38, item 5: the page server runs a released version's server code only when every file
// is the one the release store recorded, and only from the origins its pages list for remotes.

const sri = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
/** What the remote's origin serves: `served` can be changed after release, as an attacker would. */
const served: Record<string, string> = { '/v1/server/remoteEntry.js': 'module.exports = { released: true };' };
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A stored version's manifest, as the store writes it (its files' SHA-256 recorded at release) or without the record. */
const manifest = (name: string, integrity?: Record<string, string>) => ({
  metaData: {
    name,
    ssrRemoteEntry: { path: 'server', name: 'remoteEntry.js' },
    ssrFiles: ['remoteEntry.js'],
    ...(integrity && { serverIntegrity: integrity }),
  },
});

describe("a remote's server build, fetched by the page server", () => {
  it('is run when each file is the one the release store recorded', async () => {
    const builds = serverBuilds({ dir: mkdtempSync(join(tmpdir(), 'builds-')) });
    const recorded = { 'server/remoteEntry.js': sri('module.exports = { released: true };') };
    const folder = await builds.folderOf(`${origin}/v1/mf-manifest.json`, manifest('ok', recorded), {
      released: true,
    });
    expect(readFileSync(join(folder, 'server', 'remoteEntry.js'), 'utf8')).toBe('module.exports = { released: true };');
  });

  it('is refused when a file was changed after release, or the store recorded none', async () => {
    const builds = serverBuilds({ dir: mkdtempSync(join(tmpdir(), 'builds-')) });
    const recorded = { 'server/remoteEntry.js': sri('module.exports = { released: true };') };
    served['/v2/server/remoteEntry.js'] = 'module.exports = { stealCookies: true };';
    await expect(
      builds.folderOf(`${origin}/v2/mf-manifest.json`, manifest('swapped', recorded), { released: true }),
    ).rejects.toThrow(/not the file released/);
    await expect(
      builds.folderOf(`${origin}/v2/mf-manifest.json`, manifest('unrecorded'), { released: true }),
    ).rejects.toThrow(/recorded no SHA-256/);
    // A manifest that records them is checked even when not asked as a release.
    await expect(builds.folderOf(`${origin}/v2/mf-manifest.json`, manifest('swapped-again', recorded))).rejects.toThrow(
      /not the file released/,
    );
    // A deployment's own remote (not from the store) has no record to check.
    await expect(builds.folderOf(`${origin}/v2/mf-manifest.json`, manifest('own'))).resolves.toContain('own-');
  });
});

describe('the server code a page server runs', () => {
  const trust = serverCodeTrust({
    remotes: { header: 'https://header.example.com/mf-manifest.json', media: 'file:///etc/mf-manifest.json' },
    discoveryUrl: 'https://releases.example.com/store/discovery.json',
  });

  it("runs a configured remote's manifest as deployed, and a version in the store's folder as released", () => {
    expect(trust('https://header.example.com/mf-manifest.json')).toBe(false);
    expect(trust('https://releases.example.com/store/header/0123456789ab/mf-manifest.json')).toBe(true);
  });

  it('refuses anything else a discovery document or an address may name', () => {
    for (const url of [
      'https://evil.example.com/header/mf-manifest.json',
      // Another path of a configured remote's origin, or of the store's origin outside its folder.
      'https://header.example.com/uploads/mf-manifest.json',
      'https://releases.example.com/uploads/x/mf-manifest.json',
      'https://releases.example.com/store/../uploads/mf-manifest.json',
      // Out of the folder by a separator or a dot segment the server decodes, not the URL parser.
      'https://releases.example.com/store/..%2Fuploads/x/mf-manifest.json',
      'https://releases.example.com/store/..%2fuploads/x/mf-manifest.json',
      'https://releases.example.com/store/..%5Cuploads/x/mf-manifest.json',
      'https://releases.example.com/store/..%5cuploads/x/mf-manifest.json',
      'https://releases.example.com/store/header%2F..%2F..%2Fuploads/mf-manifest.json',
      'https://releases.example.com/store/%2e%2e/uploads/x/mf-manifest.json',
      'https://releases.example.com/store/.%2E/uploads/x/mf-manifest.json',
      'https://releases.example.com/store/%252e%252e/uploads/x/mf-manifest.json',
      'https://releases.example.com/store/..\\uploads/x/mf-manifest.json',
      'https://releases.example.com/store/x/%00/mf-manifest.json',
      'https://releases.example.com/store/x/%E0%A4%A/mf-manifest.json',
      'https://releases.example.com/store//uploads/mf-manifest.json',
      // A folder whose name starts like the store's is not in it, nor is the folder itself.
      'https://releases.example.com/store-evil/header/0123456789ab/mf-manifest.json',
      'https://releases.example.com/storeheader/mf-manifest.json',
      'https://releases.example.com/store',
      'https://releases.example.com/store/',
      'http://localhost:3001/mf-manifest.json',
      'data:text/javascript,1',
      'file:///etc/mf-manifest.json',
      'not a url',
    ])
      expect(() => trust(url), url).toThrow(/neither a configured remote nor in the release store/);
  });

  it('reads a store whose address names no file the same way, its folder ending at a segment', () => {
    const folderTrust = serverCodeTrust({ discoveryUrl: 'https://releases.example.com/store/' });
    expect(folderTrust('https://releases.example.com/store/header/0123456789ab/mf-manifest.json')).toBe(true);
    expect(() => folderTrust('https://releases.example.com/store-evil/mf-manifest.json')).toThrow(/neither/);
    expect(() => folderTrust('https://releases.example.com/store/..%2Fuploads/mf-manifest.json')).toThrow(/neither/);
  });
});
