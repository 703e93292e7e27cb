import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { describe, expect, it } from 'vitest';

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
/** A service's lines by its name (anchored ones too: `rabbitmq-1: &rabbitmq`), to the next service. */
const serviceText = (name: string) => {
  const start = compose.search(new RegExp(`^ {2}${name}:`, 'm'));
  if (start < 0) return '';
  const next = compose.slice(start + 1).search(/^ {2}[a-z][\w-]*:/m);
  return compose.slice(start, next < 0 ? undefined : start + 1 + next);
};

describe('docker-compose.yml against the platform table', () => {
  it("names each remote's manifest at its port, and leaves the pages' policy to the servers of the built page", () => {
    for (const r of Object.values(PLATFORM.remotes))
      expect(env[r.manifestVariable]).toBe(`http://localhost:${r.devPort}/mf-manifest.json`);
    // A policy written here would name a hash of a boot script other builds do not have.
    expect(compose).not.toContain('CONTENT_SECURITY_POLICY:');
  });

  it('builds the shell and each remote from the one Dockerfile, the app as a build argument, on its port', () => {
    for (const app of [PLATFORM.shell, ...Object.values(PLATFORM.remotes)]) {
      const built = services.filter(
        (s) => new RegExp(`^ +APP: ${app.package}$`, 'm').test(s) && !/^ +target: pages$/m.test(s),
      );
      expect(built, app.package).toHaveLength(1);
      const service = built[0] ?? '';
      expect(service).toContain('dockerfile: page-server/Dockerfile');
      expect(/ports:\s*\n\s*- "(\d+):80"/.exec(service)?.[1], app.package).toBe(String(app.devPort));
      // Only the shell answers its client routes (/user/login…): its page server renders them.
      expect(service.includes('APP_FALLBACK: "@page"'), app.package).toBe(app === PLATFORM.shell);
      expect(existsSync(join(root, app.package, 'Dockerfile')), `${app.package} has no Dockerfile of its own`).toBe(
        false,
      );
    }
  });

  it("runs the shell's page server from the same Dockerfile, reaching every remote and the API inside the network", () => {
    const pages = services.find((s) => /^ {2}pages:$/m.test(s)) ?? '';
    expect(pages).toMatch(/^ +target: pages$/m);
    expect(pages).toMatch(/^ +APP: shell$/m);
    // It listens beyond loopback, so it renders nothing without the pages' origin (serve.ts).
    expect(pages).toMatch(/^ +PUBLIC_ORIGIN: http:\/\/localhost:3000$/m);
    const shell = services.find((s) => /^ {2}shell:$/m.test(s)) ?? '';
    expect(shell).toMatch(/^ +PAGE_UPSTREAM: http:\/\/pages:3000$/m);
    const internal = new Map(
      (/^ +INTERNAL_ORIGINS: (.*)$/m.exec(pages)?.[1] ?? '')
        .split(',')
        .map((pair) => pair.split('=') as [string, string]),
    );
    for (const [name, r] of Object.entries(PLATFORM.remotes)) {
      const service = services.find((s) => new RegExp(`^ +APP: ${r.package}$`, 'm').test(s)) ?? '';
      const serviceName = /^ {2}([a-z-]+):$/m.exec(service)?.[1];
      expect(internal.get(`http://localhost:${r.devPort}`), name).toBe(`http://${serviceName}`);
    }
    expect(internal.get(env.API_ORIGIN ?? '')).toBe('http://api-gateway:4000');
  });

  it("hands the broker's nodes and the API's instances one credential for the broker's questions", () => {
    const conf = readFileSync(join(root, 'api', 'rabbitmq', 'rabbitmq.conf'), 'utf8');
    const required = /^ +BROKER_AUTH_SECRET: \$\{BROKER_AUTH_SECRET:\?[^}]+\}$/m;
    const rabbit = serviceText('rabbitmq-1');
    expect(rabbit).toMatch(required);
    expect(serviceText('api-1')).toMatch(required);
    // The repository's file is the template; the node reads the copy with the secret written in.
    expect(rabbit).toMatch(/^ +- \.\/api\/rabbitmq\/rabbitmq\.conf:\/etc\/rabbitmq-template\/rabbitmq\.conf:ro$/m);
    expect(rabbit).toContain(
      'sed "s/@BROKER_AUTH_SECRET@/$$BROKER_AUTH_SECRET/g" /etc/rabbitmq-template/rabbitmq.conf > /etc/rabbitmq/rabbitmq.conf',
    );
    expect(
      conf.match(/^auth_http\.\w+_path = http:\/\/broker-auth:@BROKER_AUTH_SECRET@@gateway:4001\//gm),
    ).toHaveLength(4);
    // The second node is the first's anchor with its own name and data: the same entrypoint.
    const second = serviceText('rabbitmq-2');
    expect(second).toMatch(/<<: \*rabbitmq/);
    expect(second).not.toMatch(/entrypoint|rabbitmq\.conf:\/etc\/rabbitmq\/rabbitmq\.conf/);
  });

  it('gives the instances a file link key of their own, not the operator token', () => {
    expect(serviceText('api-1')).toMatch(/^ +FILE_LINK_KEY: \$\{FILE_LINK_KEY:\?[^}]+\}$/m);
  });
});
