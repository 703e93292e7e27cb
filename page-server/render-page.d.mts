/** Types of render-page.mjs: the shell's pages rendered on the server. */
export interface RenderedDocument {
  status: number;
  body: string;
  problems: string[];
  /** One visitor's page (logged in): kept by no shared cache. */
  personal: boolean;
}
export function rendererOf(distDir: string): string | null;
export function pageRenderer(options: {
  distDir: string;
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
  maxVersions?: number;
  budgets?: { remoteMs?: number; dataMs?: number; renderMs?: number };
}): {
  render(request: { template: string; url: string; cookie: string; origin: string }): Promise<RenderedDocument>;
} | null;
