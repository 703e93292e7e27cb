// The built apps served for the tests: a build on a port, or deployed as a deploy serves it.
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTE_FALLBACK, SHELL_FALLBACK, startNginx } from 'page-server/nginx';
import { serveApp, stopServer } from 'page-server/serve';
import { LIVE_URL, ROOT, runtimeEnv } from '../env.js';

export type AppDir = 'shell' | 'mf-header' | 'mf-media' | 'mf-event-order' | 'mf-account';

/** Serves a built app (or any dist folder) on a port until stopped. */
export async function startApp(
  dirOrApp: AppDir | string,
  port: number,
  env: Record<string, string> = runtimeEnv(),
): Promise<Server> {
  const dir = dirOrApp.startsWith('/') ? dirOrApp : join(ROOT, dirOrApp, 'dist');
  return serveApp({ dir, port, env: { ...process.env, ...env }, log: false });
}

/**
 * Serves a build as a deploy would: under nginx with the images' template in the production
 * project (where LIVE_URL names the gateway's /mqtt, in front of RabbitMQ), with serve-app otherwise.
 */
export async function deployBuild(
  dir: string,
  port: number,
  env: Record<string, string>,
  role: 'shell' | 'remote',
): Promise<{ stop(): Promise<void> }> {
  if (!LIVE_URL) {
    const server = await serveApp({ dir, port, env: { ...process.env, ...env }, log: false });
    return { stop: () => stop(server) };
  }
  const workDir = mkdtempSync(join(tmpdir(), 'e2e-nginx-'));
  return startNginx({
    dist: dir,
    port,
    env: { ...process.env, ...env },
    fallback: role === 'shell' ? SHELL_FALLBACK : REMOTE_FALLBACK,
    workDir,
  });
}

export function stop(server: Server | undefined): Promise<void> {
  return server ? stopServer(server) : Promise.resolve();
}
