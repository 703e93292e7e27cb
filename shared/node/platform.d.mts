/** Types of platform.mjs for TypeScript callers (the e2e suite, the page server's and releases' tests). */
export interface PlatformData {
  shell: { name: string; package: string; devPort: number };
  singleBundlePort: number;
  remotes: Record<string, { package: string; devPort: number; manifestVariable: string }>;
  pages: { key: string; path: string; remote: string; module: string; header: string; footer: string }[];
}
export const PLATFORM: PlatformData;
export const APPS: Record<string, { federationName: string; port: number }>;
export const API_DEFAULT_ORIGIN: string;
export function manifestEnv(ports: Record<string, number>): Record<string, string>;
export function appFor(packageName: string): { federationName: string; port: number };
export function runtimeConfigFromEnv(env?: NodeJS.ProcessEnv): {
  apiOrigin: string;
  filesOrigin: string;
  liveUrl: string;
  remotes: Record<string, string>;
  discoveryUrl?: string;
  allowVersionOverride: boolean;
  allowLocalRemotes: boolean;
  rumSample: number;
};
export const SINGLE_BUNDLE_PORT: number;
export const COMPOSITION_ID: string;
