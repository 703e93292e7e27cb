import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { contentSecurityPolicy, inlineScriptSources } from './csp.mjs';

const config = {
  apiOrigin: 'https://api.example.com',
  filesOrigin: 'https://files.example.com',
  liveUrl: 'wss://api.example.com/mqtt',
  remotes: {
    header: 'https://cdn.example.com/header/mf-manifest.json',
    media: 'https://cdn.example.com/media/mf-manifest.json',
    eventOrder: 'https://cdn.example.com/event-order/mf-manifest.json',
    account: 'https://cdn.example.com/account/mf-manifest.json',
  },
};
const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

describe("the pages' Content-Security-Policy", () => {
  it("allows the page's own inline scripts by the hash of their exact text, and no other inline script", () => {
    const boot = '(()=>{document.title="booted"})();';
    const page = `<!doctype html><head><script defer src="/main.js"></script></head><body>
      <script type="application/json" id="platform-composition">{"config":null}</script>
      <script>${boot}</script></body>`;
    const hash = `'sha256-${createHash('sha256').update(boot).digest('base64')}'`;
    expect(inlineScriptSources(page)).toEqual([hash]);
    expect(directive(contentSecurityPolicy(config, page), 'script-src')).toBe(
      `script-src 'self' ${hash} https://cdn.example.com`,
    );
    // One byte more is another script: not allowed.
    expect(inlineScriptSources(page.replace(boot, `${boot} `))).not.toContain(hash);
    // A module or a JavaScript type runs, so it is listed; a data block or a placeholder is not.
    const typed = (type: string) => inlineScriptSources(`<script type=${type}>${boot}</script >`);
    expect([
      typed('module'),
      typed('"text/javascript"'),
      typed("'application/json'"),
      typed('text/x-after-paint'),
    ]).toEqual([[hash], [hash], [], []]);
  });

  it("allows scripts from the remotes' origins only, and no loopback development server by default", () => {
    const policy = contentSecurityPolicy(config);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' https://cdn.example.com");
    expect(policy).not.toContain('localhost');
  });

  it("with local builds allowed, adds exactly the remotes' development ports on loopback (issue 27, item 7)", () => {
    const policy = contentSecurityPolicy({ ...config, allowLocalRemotes: true });
    const loopback = [
      'http://localhost:3001',
      'http://localhost:3002',
      'http://localhost:3003',
      'http://localhost:3004',
    ];
    const local = (name: string) =>
      directive(policy, name)
        .split(' ')
        .filter((s) => s.includes('localhost'));
    expect(local('script-src')).toEqual(loopback);
    // And their development servers' live-reload sockets.
    expect(local('connect-src')).toEqual([...loopback, ...loopback.map((o) => o.replace('http:', 'ws:'))]);
  });

  it('lets pages upload to the object store the API hands out URLs for, by connection only', () => {
    const policy = contentSecurityPolicy({ ...config, uploadOrigin: 'https://files-store.example.com' });
    expect(directive(policy, 'connect-src').split(' ')).toContain('https://files-store.example.com');
    for (const name of ['script-src', 'img-src', 'media-src'])
      expect(directive(policy, name)).not.toContain('files-store');
    expect(directive(contentSecurityPolicy(config), 'connect-src')).not.toContain('files-store');
  });
});
