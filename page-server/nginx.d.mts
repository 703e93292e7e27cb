/** Types of nginx.mjs for TypeScript callers (the nginx test, the e2e production project). */
export interface NginxApp {
  dist: string;
  port: number;
  /** What a path without a file gets: the shell's page server renders it, a remote answers 404. */
  fallback: '@page' | '=404';
  env?: NodeJS.ProcessEnv;
  /** The shell's page server, when one runs elsewhere (else startNginx starts one). */
  pageUpstream?: string;
  pageCacheDir?: string;
}
export const NGINX_TEMPLATE: string;
export const SHELL_FALLBACK: '@page';
export const REMOTE_FALLBACK: '=404';
export function templateVariables(app: NginxApp): Record<string, string>;
export function renderTemplate(variables: Record<string, string>): string;
export function versionsTableDir(pageCacheDir: string): string;
export const VERSIONS_POLL_MS: number;
/** The page cache's table of versions for a discovery document (nginx map lines), or null. */
export function versionsTable(
  config: {
    remotes: Record<string, string>;
    discoveryUrl?: string;
    allowVersionOverride?: boolean;
    allowLocalRemotes?: boolean;
  },
  discovery: unknown,
): string | null;
export function startNginx(app: NginxApp & { workDir: string }): Promise<{
  url: string;
  /** Reads the release store's document now; true when the table of versions changed and nginx was reloaded. */
  refreshVersions(): Promise<boolean>;
  stop(): Promise<void>;
}>;
