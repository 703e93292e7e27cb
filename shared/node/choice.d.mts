/** Types of choice.mjs: the platform's one version choice and one cookie table. */
export const PLATFORM_COOKIES: {
  readonly loggedIn: 'loggedIn';
  readonly loginRedirect: 'loginRedirect';
  readonly cohort: 'platform-cohort';
  readonly session: 'session';
  readonly guestCart: 'guestCart';
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
export function isOverrideVersion(version: unknown): boolean;
export function overrideManifest(
  remote: string,
  version: string,
  doc: { remotes?: Partial<Record<string, { versions?: unknown } | undefined>> } | null | undefined,
  allowed: { storeVersions: boolean; local: boolean },
): string | null;
export function storedVersionOf(url: string, base?: string): string | null;
