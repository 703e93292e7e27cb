import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.mjs';

// docker-compose.yml is YAML written by hand: this keeps it to the platform table.
const root = join(import.meta.dirname, '..');
const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const block = compose.slice(compose.indexOf('x-runtime-config:'), compose.indexOf('services:'));
const env = Object.fromEntries(
  [...block.matchAll(/^ {2}([A-Z_]+): "?(.*?)"?$/gm)].map((m) => [m[1] as string, m[2] as string]),
);
/** Each service's lines, from its name to the next service. */
const services = compose
  .slice(compose.indexOf('services:'), compose.indexOf('\nvolumes:'))
  .split(/^(?= {2}[a-z-]+:$)/m)
  .slice(1);

describe('docker-compose.yml against the platform table', () => {
  it("names each remote's manifest at its port, with the policy the page server computes from them", () => {
    for (const r of Object.values(PLATFORM.remotes))
      expect(env[r.manifestVariable]).toBe(`http://localhost:${r.devPort}/mf-manifest.json`);
    expect(env.CONTENT_SECURITY_POLICY).toBe(contentSecurityPolicy(runtimeConfigFromEnv(env)));
  });

  it('builds the shell and each remote from the one Dockerfile, the app as a build argument, on its port', () => {
    for (const app of [PLATFORM.shell, ...Object.values(PLATFORM.remotes)]) {
      const built = services.filter((s) => new RegExp(`^ +APP: ${app.package}$`, 'm').test(s));
      expect(built, app.package).toHaveLength(1);
      const service = built[0] ?? '';
      expect(service).toContain('dockerfile: page-server/Dockerfile');
      expect(/ports:\s*\n\s*- "(\d+):80"/.exec(service)?.[1], app.package).toBe(String(app.devPort));
      // Only the shell answers its client routes (/user/login…) with its page.
      expect(service.includes('APP_FALLBACK: /index.html'), app.package).toBe(app === PLATFORM.shell);
      expect(existsSync(join(root, app.package, 'Dockerfile')), `${app.package} has no Dockerfile of its own`).toBe(
        false,
      );
    }
  });
});
