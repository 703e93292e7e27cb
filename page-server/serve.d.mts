import type { Server } from 'node:http';

/** Serves one built app's dist folder (see serve.mjs). */
export function serveApp(options: {
  dir: string;
  port: number;
  host?: string;
  env?: NodeJS.ProcessEnv;
  log?: boolean;
}): Promise<Server>;
/** Stops a server from serveApp now, closing its open connections. */
export function stopServer(server: Server): Promise<void>;
