export { REMOTES, REMOTE_NAMES, SHELL, SINGLE_BUNDLE_PORT, type RemoteName } from './remotes.js';
export {
  PAGES,
  PAGE_LIST,
  pagesOf,
  type Page,
  type PageRoute,
  type PageKey,
  type PageLoader,
  type PathParams,
  type HeaderVariant,
  type FooterVariant,
  type SlotVisitor,
} from './pages.js';
export {
  COMPOSITION_ELEMENT_ID,
  composedRuntimeConfig,
  pageComposition,
  resetPageComposition,
  type Composition,
} from './composition.js';
export { pageAt } from './pageAt.js';
export { routeMatcher } from './routes.js';
export { PAGE_DATA, searchQueryOf } from './pageData.js';
export {
  BEACON_ERROR_KINDS,
  BEACON_FRAME_CHARS,
  BEACON_MAX_BYTES,
  BEACON_MAX_ERRORS,
  BEACON_MAX_PER_LOAD,
  BEACON_MESSAGE_CHARS,
  BEACON_PATH,
  BEACON_TOKEN_PATH,
  UNRELEASED_VERSION,
  VITAL_NAMES,
  type Beacon,
  type BeaconError,
  type BeaconErrorKind,
  type BeaconVital,
  type Owner,
  type PageToken,
  type VitalName,
} from './beacon.js';
export * from './cookies.js';
export * from './handover.js';
export {
  PAGE_ERRORS_GLOBAL,
  PAGE_ERRORS_WAITING_MAX,
  listenForPageErrors,
  receivePageErrors,
  reportPageError,
  resetPageErrors,
  type PageErrorReport,
} from './pageErrors.js';
export type { FiguresAnswer, SeriesPoint, TopError, VersionFigures } from './figures.js';
