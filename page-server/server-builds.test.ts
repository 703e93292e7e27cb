import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCodeTrust } from './render-page.ts';
import { serverBuilds } from './server-builds.mjs';

// The page server runs a released version's server code only when its manifest and every server
// file are the ones the release store's own record of that version holds (never what the manifest
// says of itself), and only from the origins its pages list for remotes.

const sri = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
const ENTRY = 'module.exports = { released: true };';
/** A stored version's manifest; `extra` as an attacker rewriting it would add. */
const manifestText = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      metaData: {
        name,
        ssrRemoteEntry: { path: 'server', name: 'remoteEntry.js' },
        ssrFiles: ['remoteEntry.js'],
        ...extra,
      },
    },
    null,
    2,
  );
/** What the store's origin serves: `served` can be changed after release, as an attacker would. */
const served: Record<string, string> = {};
/** Releases `version` of `header` into `served` as releases/store.mjs does: files, then the store's record. */
function releaseVersion(version: string) {
  const manifest = manifestText(`header-${version}`);
  served[`/store/header/${version}/mf-manifest.json`] = manifest;
  served[`/store/header/${version}/server/remoteEntry.js`] = ENTRY;
  served[`/store/header/${version}.json`] = JSON.stringify({
    remote: 'header',
    version,
    manifest: sri(manifest),
    server: { 'server/remoteEntry.js': sri(ENTRY) },
  });
  return JSON.parse(manifest) as unknown;
}
let server: Server;
let origin: string;
let trust: (manifestUrl: string) => string | null;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  trust = serverCodeTrust({ discoveryUrl: `${origin}/store/discovery.json` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The folder of `version` as a page holding `known` asks for it, through the trust check. */
const released = (version: string, known?: unknown) => {
  const builds = serverBuilds({ dir: mkdtempSync(join(tmpdir(), 'builds-')) });
  const url = `${origin}/store/header/${version}/mf-manifest.json`;
  const record = trust(url);
  expect(record).toBe(`${origin}/store/header/${version}.json`);
  return builds.folderOf(url, known, { record: record ?? undefined });
};

describe("a released version's server build, fetched by the page server", () => {
  it("is run when its manifest and each file are the ones in the store's record", async () => {
    const known = releaseVersion('0000000000a1');
    const folder = await released('0000000000a1', known);
    expect(readFileSync(join(folder, 'server', 'remoteEntry.js'), 'utf8')).toBe(ENTRY);
  });

  it('is refused when its manifest was rewritten, even with a forged record of its own that matches', async () => {
    releaseVersion('0000000000b2');
    const evil = 'module.exports = { stealCookies: true };';
    served['/store/header/0000000000b2/server/evil.js'] = evil;
    const forged = manifestText('header-0000000000b2', {
      ssrRemoteEntry: { path: 'server', name: 'evil.js' },
      ssrFiles: ['evil.js'],
      serverIntegrity: { 'server/evil.js': sri(evil) },
    });
    served['/store/header/0000000000b2/mf-manifest.json'] = forged;
    await expect(released('0000000000b2', JSON.parse(forged))).rejects.toThrow(/not the manifest released/);
    // Whatever manifest the page holds, the one fetched is checked, and only it is run.
    releaseVersion('0000000000b3');
    const folder = await released('0000000000b3', JSON.parse(forged));
    expect(readFileSync(join(folder, 'server', 'remoteEntry.js'), 'utf8')).toBe(ENTRY);
    served['/store/header/0000000000b3/mf-manifest.json'] = forged;
    await expect(released('0000000000b3', JSON.parse(manifestText('header-0000000000b3')))).rejects.toThrow(
      /not the manifest released/,
    );
  });

  it('is refused when a server file was changed after release', async () => {
    releaseVersion('0000000000c3');
    served['/store/header/0000000000c3/server/remoteEntry.js'] = 'module.exports = { stealCookies: true };';
    await expect(released('0000000000c3')).rejects.toThrow(/remoteEntry.js .* is not the file released/);
  });

  it('is refused when the store has no record of the version', async () => {
    releaseVersion('0000000000d4');
    delete served['/store/header/0000000000d4.json'];
    await expect(released('0000000000d4')).rejects.toThrow(/no record of this version/);
  });

  it("is run as deployed when it is a deployment's own remote (no release, no record to hold it to)", async () => {
    const builds = serverBuilds({ dir: mkdtempSync(join(tmpdir(), 'builds-')) });
    served['/own/mf-manifest.json'] = manifestText('own');
    served['/own/server/remoteEntry.js'] = ENTRY;
    expect(
      serverCodeTrust({ remotes: { header: `${origin}/own/mf-manifest.json` } })(`${origin}/own/mf-manifest.json`),
    ).toBeNull();
    await expect(builds.folderOf(`${origin}/own/mf-manifest.json`)).resolves.toContain('own-');
  });
});

describe('the server code a page server runs', () => {
  const trust = serverCodeTrust({
    remotes: { header: 'https://header.example.com/mf-manifest.json', media: 'file:///etc/mf-manifest.json' },
    discoveryUrl: 'https://releases.example.com/store/discovery.json',
  });

  it("runs a configured remote's manifest as deployed, and a version in the store's folder as released", () => {
    expect(trust('https://header.example.com/mf-manifest.json')).toBeNull();
    // The version's record is the store's, beside the version's folder: its address is made from the store's.
    expect(trust('https://releases.example.com/store/header/0123456789ab/mf-manifest.json')).toBe(
      'https://releases.example.com/store/header/0123456789ab.json',
    );
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
      // In the store's folder, but not a version's manifest: no record of the store's names it.
      'https://releases.example.com/store/header/mf-manifest.json',
      'https://releases.example.com/store/header/0123456789ab/x/mf-manifest.json',
      'https://releases.example.com/store/header/0123456789ab/remoteEntry.js',
      'https://releases.example.com/store/header/0123456789ab%20x/mf-manifest.json',
      'http://localhost:3001/mf-manifest.json',
      'data:text/javascript,1',
      'file:///etc/mf-manifest.json',
      'not a url',
    ])
      expect(() => trust(url), url).toThrow(/neither a configured remote nor a version's manifest/);
  });

  it('reads a store whose address names no file the same way, its folder ending at a segment', () => {
    const folderTrust = serverCodeTrust({ discoveryUrl: 'https://releases.example.com/store/' });
    expect(folderTrust('https://releases.example.com/store/header/0123456789ab/mf-manifest.json')).toBe(
      'https://releases.example.com/store/header/0123456789ab.json',
    );
    expect(() => folderTrust('https://releases.example.com/store-evil/mf-manifest.json')).toThrow(/neither/);
    expect(() => folderTrust('https://releases.example.com/store/..%2Fuploads/mf-manifest.json')).toThrow(/neither/);
  });
});
