/** Types of choice.mjs: the platform's one version choice and one cookie table. */
export const PLATFORM_COOKIES: {
  readonly loggedIn: 'loggedIn';
  readonly loginRedirect: 'loginRedirect';
  readonly cohort: 'platform-cohort';
  readonly session: 'session';
  readonly guestCart: 'guestCart';
  readonly browser: 'platform-browser';
};
export function cookieIn(header: string | null | undefined, name: string): string | null;
export function cohortValue(value: string | null | undefined): number | null;
export function cohortIn(header: string | null | undefined): number | null;
export function loggedInIn(header: string | null | undefined): boolean;
export interface ChoicePointer {
  manifest?: unknown;
  version?: unknown;
}
export function chosenPointer<P extends ChoicePointer, C extends P & { percent: number }>(
  entry: { live?: P; canary?: C } | null | undefined,
  cohort: number | null,
): P | C | null;
export const LOCAL_VERSION: 'local';
export function localManifestAt(port: number): string;
export function isOverrideVersion(version: unknown): boolean;
export function overrideManifest(
  remote: string,
  version: string,
  doc: { remotes?: Partial<Record<string, { versions?: unknown } | undefined>> } | null | undefined,
  allowed: { storeVersions: boolean; local: boolean },
): string | null;
export function storedVersionOf(url: string, base?: string): string | null;
export const OVERRIDE_PARAM: 'version';
export function overridesIn(
  search: string,
  kept: Record<string, unknown>,
  remotes: readonly string[],
): Record<string, string>;
export function isDiscoveryDocument(value: unknown): boolean;
export interface VersionChoice {
  /** Each remote's manifest URL. */
  manifests: Record<string, string>;
  /** The tester's versions that apply. */
  used: Record<string, string>;
  /** The tester's versions refused (not allowed here, or not in the store). */
  refused: Record<string, string>;
  /** Remotes whose version the page cannot know yet (the browser's to load). */
  undecided: string[];
}
export function chooseVersions(input: {
  config: {
    remotes: Record<string, string>;
    discoveryUrl?: string;
    allowVersionOverride?: boolean;
    allowLocalRemotes?: boolean;
  };
  discovery: unknown;
  cohort: number | null;
  overrides: Record<string, string>;
  localManifests: Record<string, string>;
}): VersionChoice;
