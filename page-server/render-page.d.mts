/** Types of render-page.mjs: the shell's pages rendered on the server. */
import type { RenderBudgets, RenderedDocument } from '@marketplace/shared/render-contract';

export type { RenderedDocument };
export function rendererOf(distDir: string): string | null;
export interface RenderLimit {
  run<T>(task: () => Promise<T>): Promise<T | null>;
  readonly running: number;
  readonly waiting: number;
}
export function serverCodeTrust(config: {
  remotes?: Record<string, string>;
  discoveryUrl?: string;
}): (manifestUrl: string) => string | null;
export function pathSegments(pathname: string): string[] | null;
export function renderLimit(limits: { concurrency: number; queue: number; waitMs?: number }): RenderLimit;
export function pageRenderer(options: {
  distDir: string;
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
  maxVersions?: number;
  budgets?: Partial<RenderBudgets>;
}): {
  /** Null when renders are at their limit: the page is then the browser's. */
  render(request: { template: string; url: string; cookie: string; origin: string }): Promise<RenderedDocument | null>;
  limit: RenderLimit;
} | null;
