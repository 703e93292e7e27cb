/** Types of nginx.mjs for TypeScript callers. */
export function runNginx(options: {
  workDir: string;
  port: number;
  site: string;
  httpDirectives?: string;
  name: string;
}): Promise<{ stop(): Promise<void> }>;
