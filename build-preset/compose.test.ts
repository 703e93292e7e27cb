import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM, runtimeConfigFromEnv } from './apps.mjs';
import { contentSecurityPolicy } from './csp.mjs';

// docker-compose.yml is YAML written by hand: this keeps it to the platform table.
const compose = readFileSync(join(import.meta.dirname, '..', 'docker-compose.yml'), 'utf8');
const block = compose.slice(compose.indexOf('x-runtime-config:'), compose.indexOf('services:'));
const env = Object.fromEntries([...block.matchAll(/^ {2}([A-Z_]+): "?(.*?)"?$/gm)].map((m) => [m[1] as string, m[2] as string]));

describe('docker-compose.yml against the platform table', () => {
  it("names each remote's manifest at its port, with the policy the preset computes from them", () => {
    for (const r of Object.values(PLATFORM.remotes)) expect(env[r.manifestVariable]).toBe(`http://localhost:${r.devPort}/mf-manifest.json`);
    expect(env.CONTENT_SECURITY_POLICY).toBe(contentSecurityPolicy(runtimeConfigFromEnv(env)));
  });

  it('runs the shell and each remote from its own Dockerfile on its port', () => {
    for (const app of [PLATFORM.shell, ...Object.values(PLATFORM.remotes)]) {
      const dockerfile = `dockerfile: ${app.package}/Dockerfile`;
      expect(compose).toContain(dockerfile);
      const service = compose.slice(compose.indexOf(dockerfile));
      expect(/ports:\s*\n\s*- "(\d+):80"/.exec(service)?.[1], app.package).toBe(String(app.devPort));
    }
  });
});
