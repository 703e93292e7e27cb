import type { Server } from 'node:http';

/** Serves one built app's dist folder (see serve.mjs). */
export function serveApp(options: {
  dir: string;
  port: number;
  host?: string;
  env?: NodeJS.ProcessEnv;
  log?: boolean;
  /** The loopback name pages are opened at; a navigation at another one is sent there (308). */
  loopbackName?: string | null;
}): Promise<Server>;
/**
 * The origin rendered pages are named by: PUBLIC_ORIGIN, or null (the server's own localhost
 * address); throws when it is required (NODE_ENV=production, a host beyond loopback) or not an origin.
 */
export function publicOrigin(env: NodeJS.ProcessEnv, host: string): string | null;
/** Stops a server from serveApp now, closing its open connections. */
export function stopServer(server: Server): Promise<void>;
