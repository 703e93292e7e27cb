import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveApp } from '../../build-preset/serve.mjs';
import { ROOT, runtimeEnv } from '../env.js';

export type AppDir = 'shell' | 'mf-header' | 'mf-media' | 'mf-event-order' | 'mf-account';

/** Serves a built app (or any dist folder) on a port until stopped. */
export async function startApp(dirOrApp: AppDir | string, port: number, env: Record<string, string> = runtimeEnv()): Promise<Server> {
  const dir = dirOrApp.startsWith('/') ? dirOrApp : join(ROOT, dirOrApp, 'dist');
  return serveApp({ dir, port, env: { ...process.env, ...env }, log: false });
}

export function stop(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A copy of an app's dist where one chunk's text is replaced: a broken build of that remote. */
export function brokenCopy(app: AppDir, chunkPrefix: string, find: string, replace: string): string {
  const copy = mkdtempSync(join(tmpdir(), `${app}-broken-`));
  cpSync(join(ROOT, app, 'dist'), copy, { recursive: true });
  const chunk = readdirSync(copy).find((f) => f.startsWith(chunkPrefix) && f.endsWith('.js'));
  if (!chunk) throw new Error(`no ${chunkPrefix}*.js in ${app}/dist`);
  const code = readFileSync(join(copy, chunk), 'utf8');
  if (!code.includes(find)) throw new Error(`${chunk} does not contain ${find}`);
  writeFileSync(join(copy, chunk), code.replace(find, replace));
  return copy;
}
