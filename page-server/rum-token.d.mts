/** Types of rum-token.mjs: a page load's beacon token from the page server. */
export const UNRELEASED: string;
export const COHORT_COOKIE: string;
export function versionOfManifest(url: string, base?: string): string;
export function cohortIn(cookie: string): number | null;
export interface PageConfig {
  remotes: Record<string, string>;
  discoveryUrl?: string;
  allowVersionOverride?: boolean;
  allowLocalRemotes?: boolean;
}
export function pageVersions(request: {
  config: PageConfig;
  discovery: unknown;
  composes: boolean;
  cookie: string;
  search: string;
}): Record<string, string[]> | null;
export function rumTokens(options: {
  env: NodeJS.ProcessEnv;
  include: (path: string) => Promise<string | null>;
}):
  | ((request: {
      cookie: string;
      search: string;
      composes: boolean;
      now?: number;
    }) => Promise<{ status: number; body: object }>)
  | null;
