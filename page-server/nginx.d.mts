/** Types of nginx.mjs for TypeScript callers (the nginx test, the e2e production project). */
export interface NginxApp {
  dist: string;
  port: number;
  /** What a path without a file gets: the shell's page, or 404 for a remote. */
  fallback: '/index.html' | '=404';
  env?: NodeJS.ProcessEnv;
}
export const NGINX_TEMPLATE: string;
export function templateVariables(app: NginxApp): Record<string, string>;
export function renderTemplate(variables: Record<string, string>): string;
export function startNginx(app: NginxApp & { workDir: string }): Promise<{ url: string; stop(): Promise<void> }>;
