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
export function startNginx(app: NginxApp & { workDir: string }): Promise<{ url: string; stop(): Promise<void> }>;
